/**
 * What two executables must agree on when one SDK program drives them on one script: the sequence of SDK messages
 * reduced to its structure. Kept: message types and subtypes, the blocks of assistant and user messages (tool names
 * and whether a tool_result is an error, not texts), which tool_use each tool_result answers (by position, not id),
 * `parent_tool_use_id` (as the position of the Task call it names), and of each result its subtype, is_error,
 * terminal_reason, num_turns, the count of `errors` and the tool names of its permission_denials.
 * Dropped: ids, uuids, times, texts, usage, costs, tool lists, and the types in `IGNORED_TYPES` (each with why).
 * Merged: the real executable sends one assistant message per content block of one API message (all with the
 * API message's id); consecutive assistant messages with one `message.id` are one entry, as one API message.
 */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/** Informational messages of the real executable that no SDK program needs to see the same way. */
export const IGNORED_TYPES = new Set<string>([
  'rate_limit_event', // the real API's rate-limit headers (the fake API sends none)
]);

type Block = { type: string; name?: string; id?: string; tool_use_id?: string; is_error?: boolean };

/** One message as a short line, e.g. `assistant [thinking, tool_use Read#0]` or `result error_max_turns ...`. */
export type Shape = string;

export function messageShapes(messages: readonly SDKMessage[]): Shape[] {
  const toolUses: string[] = []; // tool_use ids in order of appearance: a position stands for an id
  const position = (id: string | null | undefined) => {
    if (id == null) return '-';
    const at = toolUses.indexOf(id);
    return at < 0 ? '?' : `#${at}`;
  };
  const shapes: Shape[] = [];
  let streamRun = false;
  let lastAssistant: { id: string; parent: string; blocks: string[]; index: number } | undefined;
  for (const message of messages) {
    const m = message as Record<string, any>;
    if (IGNORED_TYPES.has(m.type)) continue;
    if (m.type === 'stream_event') {
      // A run of partial messages is one entry: their count depends on how text is chunked.
      if (!streamRun) shapes.push(`stream_event${parent(m)}`);
      streamRun = true;
      continue;
    }
    streamRun = false;
    switch (m.type) {
      case 'system':
        shapes.push(`system ${m.subtype}`);
        break;
      case 'assistant':
      case 'user': {
        const content: Block[] = typeof m.message?.content === 'string' ? [{ type: 'text' }] : (m.message?.content ?? []);
        const blocks: string[] = content.map((block) => {
          if (block.type === 'tool_use') {
            toolUses.push(String(block.id));
            return `tool_use ${block.name}${position(block.id)}`;
          }
          if (block.type === 'tool_result') return `tool_result${position(block.tool_use_id)}${block.is_error ? ' error' : ''}`;
          return block.type;
        });
        const id = m.type === 'assistant' ? m.message?.id : undefined;
        const same = lastAssistant;
        if (id !== undefined && same && same.id === id && same.parent === parent(m)) {
          same.blocks.push(...blocks);
          shapes[same.index] = `assistant${same.parent} [${same.blocks.join(', ')}]`;
        } else {
          shapes.push(`${m.type}${parent(m)} [${blocks.join(', ')}]`);
          lastAssistant = id === undefined ? undefined : { id, parent: parent(m), blocks, index: shapes.length - 1 };
        }
        break;
      }
      case 'result':
        shapes.push(resultShape(m));
        lastAssistant = undefined;
        break;
      default:
        shapes.push(m.subtype ? `${m.type} ${m.subtype}` : m.type);
    }
  }
  return shapes;

  function parent(m: Record<string, any>): string {
    return m.parent_tool_use_id ? ` (in ${position(m.parent_tool_use_id)})` : '';
  }
}

function resultShape(m: Record<string, any>): Shape {
  const denials = (m.permission_denials ?? []).map((d: { tool_name: string }) => d.tool_name);
  const errors = Array.isArray(m.errors) ? ` errors=${m.errors.length}` : '';
  return (
    `result ${m.subtype} is_error=${m.is_error} terminal_reason=${m.terminal_reason} num_turns=${m.num_turns}` +
    `${errors} denials=[${denials.join(',')}]`
  );
}
