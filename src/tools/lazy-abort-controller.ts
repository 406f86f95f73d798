/**
 * An AbortController whose AbortSignal is built only when someone reads `signal`.
 *
 * Why: the interpreter makes one controller per model call and per tool call, and most callees never look at the
 * signal (a trivial tool, a scripted model), yet building an AbortSignal costs more than the rest of such a call.
 *
 * Invariants:
 * - `abort` takes effect once; later calls do nothing (like `AbortController.abort`).
 * - A signal read after the abort is born aborted, with the same reason; one read before it is aborted with it.
 * - `onAbort` listeners run synchronously on the abort, before the signal's own listeners, each at most once.
 */
import { keepLatest } from './kept-shapes.ts';

export class LazyAbortController {
  #aborted = false;
  #reason: unknown = undefined;
  #controller: AbortController | undefined;
  #listeners: Array<() => void> = [];

  constructor() {
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see kept-shapes.ts).
    keepLatest(LazyAbortController, this);
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** The abort reason, as `AbortSignal.reason` would give it (undefined until aborted). */
  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once; without a reason, the reason is an `AbortError` DOMException, as with `AbortController`. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
    this.#controller?.abort(reason);
  }

  /** Calls `listener` on the abort (at once if already aborted). */
  onAbort(listener: () => void): void {
    if (this.#aborted) listener();
    else this.#listeners.push(listener);
  }
}
