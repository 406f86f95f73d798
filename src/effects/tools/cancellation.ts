/**
 * Why a tool call is cancelled (SPEC §7.5), carried as the `reason` of the call's own AbortSignal so that the
 * single result the call gets can say why. Rules:
 * - a loop abort with reason `'interrupt'` (the user typed a new message) cancels only tools whose
 *   `interruptBehavior` is `'cancel'`; any other loop abort cancels every tool;
 * - an error of a shell-like tool cancels its siblings;
 * - a discarded executor cancels everything;
 * - a timeout cancels the one call.
 */
import type { InterruptBehavior } from './define-tool.ts';

export type CancelKind = 'user_abort' | 'sibling_error' | 'discarded' | 'timeout';

export class ToolCancellation extends Error {
  readonly code = 'TOOL_CANCELLED';
  constructor(
    readonly kind: CancelKind,
    message: string,
  ) {
    super(message);
    this.name = 'ToolCancellation';
  }
}

export const USER_ABORT_TEXT = 'Cancelled: the user interrupted this tool call before it finished.';

export function siblingErrorCancellation(toolName: string, toolUseId: string): ToolCancellation {
  return new ToolCancellation(
    'sibling_error',
    `Cancelled: a sibling tool call (${toolName}, ${toolUseId}) failed, so this call was stopped.`,
  );
}

export function discardCancellation(reason: string): ToolCancellation {
  return new ToolCancellation('discarded', `Discarded before it finished: ${reason}`);
}

export function timeoutCancellation(toolName: string, ms: number): ToolCancellation {
  return new ToolCancellation('timeout', `Tool ${toolName} timed out after ${ms} ms.`);
}

/** The loop's abort reason as text: `'interrupt'` for a user interrupt, else whatever was given. */
export function loopAbortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message || reason.name;
  return 'aborted';
}

/** Does a loop abort with this reason cancel a tool with this behaviour? */
export function loopAbortCancels(reason: string, behavior: InterruptBehavior): boolean {
  return reason !== 'interrupt' || behavior === 'cancel';
}

/** The text a cancelled call's result carries. */
export function cancellationText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof ToolCancellation) return reason.message;
  return USER_ABORT_TEXT;
}

/**
 * Derives a call's own signal from the loop signal and an optional group signal (siblings, discard). The call
 * is aborted when the loop aborts with a reason that cancels it, or when the group aborts (its reason is kept).
 * `dispose` detaches the listeners once the call is over.
 */
export function linkToolSignal(
  loopSignal: AbortSignal,
  behavior: InterruptBehavior,
  groupSignal?: AbortSignal,
): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const onLoopAbort = () => {
    if (loopAbortCancels(loopAbortReason(loopSignal), behavior)) {
      controller.abort(new ToolCancellation('user_abort', USER_ABORT_TEXT));
    }
  };
  const onGroupAbort = () => controller.abort(groupSignal?.reason);
  if (groupSignal?.aborted) onGroupAbort();
  else if (loopSignal.aborted) onLoopAbort();
  loopSignal.addEventListener('abort', onLoopAbort, { once: true });
  groupSignal?.addEventListener('abort', onGroupAbort, { once: true });
  return {
    controller,
    dispose: () => {
      loopSignal.removeEventListener('abort', onLoopAbort);
      groupSignal?.removeEventListener('abort', onGroupAbort);
    },
  };
}
