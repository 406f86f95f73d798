/**
 * `deepFreeze` makes accidental mutation throw (ESM modules run in strict mode), which is how the tests prove
 * that `step()` never writes to its inputs.
 */

/** Freezes `value` and everything reachable from it; returns it for chaining. Shared sub-objects are fine. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value as object)) {
    deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** A deep copy through JSON, i.e. what a session log or another process would hand back. */
export function jsonRoundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
