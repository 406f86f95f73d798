/**
 * One tool call run under the executors' cancellation rules: its signal follows the loop signal (respecting
 * `interruptBehavior`) and its group (sibling errors, discard). Reports whether the call is a shell-like
 * error, which must cancel its siblings (docs/loop.md §7.5). Listeners are detached when the call is over.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { LazyAbortController } from './lazy-abort-controller.ts';
import { linkToolSignal, type CancelGroup } from './cancellation.ts';
import type { Tool } from './define-tool.ts';
import { runOwnedToolUse, type ToolUseOutcome } from './run-tool-use.ts';
import type { ToolCallDeps } from './call-deps.ts';

export interface LinkedCallOutcome extends ToolUseOutcome {
  /** True when this result must cancel the siblings: a shell-like tool ended in an error (not a cancellation). */
  cancelsSiblings: boolean;
}

export interface LinkedCall {
  controller: LazyAbortController;
  done: Promise<LinkedCallOutcome>;
}

export function interruptBehaviorOf(tool: Tool | undefined): Tool['interruptBehavior'] {
  // An unknown tool ends at once with an error; 'cancel' keeps it from ever waiting on an interrupt.
  return tool?.interruptBehavior ?? 'cancel';
}

export function startLinkedCall(
  toolUse: ToolUseBlock,
  deps: ToolCallDeps,
  loopSignal: AbortSignal,
  group: CancelGroup,
  context: Readonly<Record<string, unknown>>,
): LinkedCall {
  const tool = deps.registry.find(toolUse.name);
  const { controller, dispose } = linkToolSignal(loopSignal, interruptBehaviorOf(tool), group);
  // The linked controller is this call's alone, so the call runs on it directly (no second, mirroring controller).
  const done = runOwnedToolUse(toolUse, deps, controller, context, tool)
    // A literal, not `{ ...outcome, cancelsSiblings }`: V8 (Node 20) gives such a spread a new hidden class per call.
    .then((outcome): LinkedCallOutcome => ({ event: outcome.event, status: outcome.status, cancelsSiblings: outcome.status === 'error' && tool?.isShellLike === true }))
    .finally(dispose);
  return { controller, done };
}
