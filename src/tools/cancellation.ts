/**
 * Why a tool call is cancelled (docs/loop.md §7.5), carried as the `reason` of the call's own AbortSignal so that the
 * single result the call gets can say why. Rules:
 * - a loop abort with reason `'interrupt'` (the user typed a new message) cancels only tools whose
 *   `interruptBehavior` is `'cancel'`; any other loop abort cancels every tool;
 * - an error of a shell-like tool cancels its siblings;
 * - a discarded executor cancels everything;
 * - a timeout cancels the one call.
 */
import { LazyAbortController } from './lazy-abort-controller.ts';
import type { InterruptBehavior } from './define-tool.ts';
import { onAbort } from './abort-listeners.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { keepLatest } from './kept-shapes.ts';

export type CancelKind = 'user_abort' | 'sibling_error' | 'discarded' | 'timeout';

export class ToolCancellation extends TurnloopError {
  constructor(
    readonly kind: CancelKind,
    message: string,
  ) {
    super('TOOL_CANCELLED', message);
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
  return new ToolCancellation('timeout', `Tool ${toolName} timed out after ${ms} ms; it had started, so part of its work may have been done.`);
}

/** The result text of a call cancelled before it began: it did not run at all. */
export function notStartedText(reason: string): string {
  return `Not run: this tool call was cancelled before it started. (${reason})`;
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

/** The text a cancelled call's result carries (from its signal or controller). */
export function cancellationText(aborted: { readonly reason: unknown }): string {
  const reason: unknown = aborted.reason;
  if (reason instanceof ToolCancellation) return reason.message;
  return USER_ABORT_TEXT;
}

/**
 * The calls of one executor that a sibling error or a discard cancels together. A plain list rather than a shared
 * AbortController: a group is made per model turn and is almost never cancelled, and a controller (plus a
 * listener per call) costs more than the trivial tool calls it would guard.
 */
export class CancelGroup {
  #reason: ToolCancellation | null = null;
  readonly #members = new Set<LazyAbortController>();

  constructor() {
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see kept-shapes.ts).
    keepLatest(CancelGroup, this);
  }

  /** Why the group was cancelled; null while it was not. */
  get reason(): ToolCancellation | null {
    return this.#reason;
  }

  /** Cancels the group once: every member still in it is aborted with `reason`, in the order they joined. */
  cancel(reason: ToolCancellation): void {
    if (this.#reason) return;
    this.#reason = reason;
    for (const member of this.#members) member.abort(reason);
  }

  /** Adds a call's controller; it is aborted at once if the group already was cancelled. Returns `leave`. */
  join(member: LazyAbortController): () => void {
    if (this.#reason) member.abort(this.#reason);
    else this.#members.add(member);
    return () => void this.#members.delete(member);
  }
}

/**
 * Derives a call's own controller from the loop signal and an optional group (siblings, discard). The call is
 * aborted when the loop aborts with a reason that cancels it, or when the group is cancelled (its reason is kept;
 * a group cancelled already wins over a loop aborted already). `dispose` detaches the call once it is over. The
 * controller builds its AbortSignal only if the tool reads it.
 */
export function linkToolSignal(
  loopSignal: AbortSignal,
  behavior: InterruptBehavior,
  group?: CancelGroup,
): { controller: LazyAbortController; dispose: () => void } {
  const controller = new LazyAbortController();
  const onLoopAbort = () => {
    if (loopAbortCancels(loopAbortReason(loopSignal), behavior)) {
      controller.abort(new ToolCancellation('user_abort', USER_ABORT_TEXT));
    }
  };
  const leaveGroup = group?.join(controller);
  if (!controller.aborted && loopSignal.aborted) onLoopAbort();
  const detach = onAbort(loopSignal, onLoopAbort);
  return {
    controller,
    dispose: () => {
      detach();
      leaveGroup?.();
    },
  };
}
