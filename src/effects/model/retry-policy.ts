/**
 * When to retry a failed model request, and how long to wait first (SPEC §4.5). Pure: the caller sleeps.
 *
 * Invariants:
 * - Backoff: `min(baseDelayMs * 2^n, maxDelayMs)` before retry n (n = retries already made, from 0).
 * - Every failed attempt (overloaded or not) counts against `maxRetries`; once it is used up → give up.
 * - Overload answers are also counted in a row: with a fallback model, the `maxOverloadedRetries`-th consecutive
 *   one ends the call with `fallback` (no sleep). Any other failure resets that run. Without a fallback model an
 *   overload is just a retryable failure.
 */
import type { RetryPolicy } from '../../config/config.ts';

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

/** Decides what follows a retryable (`overloaded` or not) failure. */
export function decideRetry(
  state: RetryState,
  failure: { overloaded: boolean },
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
    delayMs: backoffDelay(policy, state.retries),
    state: { retries: state.retries + 1, consecutiveOverloaded },
  };
}
