/**
 * `maxBudgetUsd` as claude 2.1.334 checks it: outside the loop, in its SDK layer, after the messages the loop yields,
 * with a reply's cost counted once the reply is complete. So a reply that passes the budget is kept whole, its tools
 * do not run and no further request is made (docs/agent-sdk-conformance.md). Pure.
 */
import type { QueryItem } from '../messages/types.ts';

/**
 * Where claude's budget check can stop a turn: after a reply is complete (`message_stop`), and after each message of
 * the main thread that is not part of a reply (a tool_result, a note). Never between a reply's blocks.
 */
export function endsBudgetCheckInterval(item: QueryItem): boolean {
  if (item.type === 'stream_event') return (item.event as { type?: unknown } | null)?.type === 'message_stop';
  return item.type === 'user';
}
