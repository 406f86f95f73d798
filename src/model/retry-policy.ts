/**
 * When to retry a failed model request, and how long to wait first (docs/loop.md §4.5). Pure: the caller sleeps.
 *
 * Invariants:
 * - Backoff: `min(baseDelayMs * 2^n, maxDelayMs)` before retry n (n = retries already made, from 0).
 * - Every failed attempt (overloaded or not) counts against `maxRetries`; once it is used up → give up.
 * - Overload answers are also counted in a row: with a fallback model, the `maxOverloadedRetries`-th consecutive
 *   one ends the call with `fallback` (no sleep). Any other failure resets that run. Without a fallback model an
 *   overload is just a retryable failure.
 * - A `retry-after` the API sent (429, 529, 5xx) is obeyed instead of the backoff, as Claude Code obeys it:
 *   `retry-after-ms` (milliseconds) first, then `retry-after` (seconds, or an HTTP date read against the clock).
 */
import type { RetryPolicy } from '../config/config.ts';

export interface RetryState {
  /** Retries already made. */
  retries: number;
  /** Overload answers in a row. */
  consecutiveOverloaded: number;
}

export const INITIAL_RETRY_STATE: RetryState = { retries: 0, consecutiveOverloaded: 0 };

export type RetryDecision =
  | { action: 'retry'; delayMs: number; state: RetryState }
  | { action: 'fallback' }
  | { action: 'give_up' };

export function backoffDelay(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs);
}

/**
 * The wait the API asked for in an error's headers (`retry-after-ms`, `retry-after`), in ms; undefined when it
 * asked for none or for something unreadable, zero or in the past.
 */
export function retryAfterMs(error: unknown, now: number): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  const read = (name: string): string | undefined => {
    if (!headers || typeof headers !== 'object') return undefined;
    const value = typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, unknown>)[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const ms = read('retry-after-ms');
  const seconds = read('retry-after');
  const delay = ms !== undefined ? Number(ms) : seconds === undefined ? NaN : /^\d+(\.\d+)?$/.test(seconds) ? Number(seconds) * 1000 : Date.parse(seconds) - now;
  return Number.isFinite(delay) && delay > 0 ? Math.ceil(delay) : undefined;
}

/** Decides what follows a retryable (`overloaded` or not) failure. */
export function decideRetry(
  state: RetryState,
  failure: { overloaded: boolean; retryAfterMs?: number },
  policy: RetryPolicy,
  hasFallbackModel: boolean,
): RetryDecision {
  const consecutiveOverloaded = failure.overloaded ? state.consecutiveOverloaded + 1 : 0;
  if (failure.overloaded && hasFallbackModel && consecutiveOverloaded >= policy.maxOverloadedRetries) {
    return { action: 'fallback' };
  }
  if (state.retries >= policy.maxRetries) return { action: 'give_up' };
  return {
    action: 'retry',
    delayMs: failure.retryAfterMs ?? backoffDelay(policy, state.retries),
    state: { retries: state.retries + 1, consecutiveOverloaded },
  };
}
