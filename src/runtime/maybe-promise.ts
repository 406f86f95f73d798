/**
 * Answers that may be ready at once: a synchronous dependency (a pure context layer, no stop hooks) answers without
 * a promise, and the in-process interpreter then feeds the answer right after the step that asked for it.
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `map` applied to the value: at once when it is ready, after it settles when it is a promise. */
export function thenMaybe<T, R>(value: T | PromiseLike<T>, map: (value: T) => R): MaybePromise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(map) : map(value);
}
