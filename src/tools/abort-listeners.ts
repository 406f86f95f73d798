/**
 * Short-lived abort listeners on a long-lived AbortSignal (the run's): one real listener per signal, with a set of
 * callbacks behind it.
 *
 * Why: the loop attaches and detaches several listeners on the run's signal every turn (the model call, each tool
 * call, the tool executor), and Node's `addEventListener`/`removeEventListener` cost about a microsecond each with
 * the option object; a set costs nanoseconds.
 *
 * Invariants:
 * - A callback runs at most once, when the signal aborts, after the listeners the signal had before the first
 *   callback was added here, in the order the callbacks were added.
 * - A callback removed before the abort never runs; adding one to an already aborted signal never runs it (as
 *   `addEventListener` would not): callers check `aborted` first.
 * - A throwing callback does not stop the others; its error is rethrown on its own, as an event listener's is.
 */
const callbacksOf = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` when `signal` aborts; returns the function that detaches it. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = callbacksOf.get(signal);
  if (!callbacks) {
    const set = new Set<() => void>();
    callbacks = set;
    callbacksOf.set(signal, set);
    signal.addEventListener('abort', () => runAll(set), { once: true });
  }
  callbacks.add(callback);
  const attached = callbacks;
  return () => void attached.delete(callback);
}

function runAll(callbacks: Set<() => void>): void {
  const all = [...callbacks];
  callbacks.clear();
  for (const callback of all) {
    try {
      callback();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
