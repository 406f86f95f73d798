/**
 * The queue between background work (model streams, tools, hooks, compactors) and the interpreter's loop.
 *
 * Invariants: entries are taken in the order they were put; `put` resolves only once the loop has processed the
 * entry, so no producer runs ahead of the consumer (backpressure); after `close()`, pending and later puts resolve
 * at once and their entries are dropped.
 */
import { keepLatest } from '../tools/kept-shapes.ts';

export class EventChannel<T> {
  private readonly entries: Array<{ value: T; processed: () => void }> = [];
  private waiter: ((entry: { value: T; processed: () => void } | null) => void) | null = null;
  private closed = false;

  constructor() {
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see src/tools/kept-shapes.ts).
    keepLatest(EventChannel, this);
  }

  /** Queues `value`; resolves when the consumer has processed it (or the channel closed). */
  put(value: T): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((processed) => {
      const entry = { value, processed };
      if (this.waiter) {
        const waiter = this.waiter;
        this.waiter = null;
        waiter(entry);
      } else {
        this.entries.push(entry);
      }
    });
  }

  /** The next entry, or null once closed and empty. Call `processed()` on it when done with it. */
  take(): Promise<{ value: T; processed: () => void } | null> {
    const entry = this.entries.shift();
    if (entry) return Promise.resolve(entry);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  get size(): number {
    return this.entries.length;
  }

  close(): void {
    this.closed = true;
    for (const entry of this.entries.splice(0)) entry.processed();
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(null);
    }
  }
}
