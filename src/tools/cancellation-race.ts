/**
 * Which ends first, a tool call's pipeline or its cancellation (`run-tool-use.ts`):
 * `Promise.race([work, cancelled])` where `cancelled` is a promise resolved by the call's abort, in one promise
 * instead of four, with the same microtask hops: the winner is known one hop after it settles (a cancellation
 * by a queued microtask, as the race's reaction to the resolved promise would be), and when both have settled
 * before `firstOf` is called, the pipeline wins, as the first of the race's entries.
 */
import { keepLatest } from './kept-shapes.ts';

export class CancellationRace<T> {
  #cancelledEarly = false;
  #settle: ((winner: T | 'cancelled') => void) | null = null;

  constructor() {
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see kept-shapes.ts).
    keepLatest(CancellationRace, this);
  }

  /** The abort listener (an arrow: handed to `onAbort`). */
  readonly cancel = (): void => {
    const settle = this.#settle;
    if (settle === null) this.#cancelledEarly = true;
    else queueMicrotask(() => settle('cancelled'));
  };

  firstOf(work: Promise<T>): Promise<T | 'cancelled'> {
    return new Promise<T | 'cancelled'>((resolve, reject) => {
      work.then(resolve, reject);
      this.#settle = resolve;
      if (this.#cancelledEarly) queueMicrotask(() => resolve('cancelled'));
    });
  }
}
