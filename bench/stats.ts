/** Order statistics for the report: nearest-rank quantiles over sorted copies; inputs are never mutated. */

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export function minMax(values: readonly number[]): [min: number, max: number] {
  return [Math.min(...values), Math.max(...values)];
}

/**
 * A distribution-free confidence interval for the median of `values` (default 95%): order statistics `k` and
 * `n - k + 1` (1-based), with `k` the largest rank such that a Binomial(n, 1/2) count falls below it with
 * probability at most (1 - level) / 2. It assumes only that the values are independent draws of one distribution,
 * which suits per-round paired ratios whose spread is wide and skewed. Null when `values` are too few for the level
 * (n < 6 at 95%).
 */
export function medianInterval(values: readonly number[], level = 0.95): [low: number, high: number] | null {
  const n = values.length;
  const tail = (1 - level) / 2;
  // P(B <= i) for B ~ Binomial(n, 1/2), summed in logs so that large n neither overflows nor underflows.
  let logTerm = -n * Math.LN2; // log(C(n, 0) / 2^n)
  let below = 0; // P(B <= k - 1)
  let k = 0;
  for (let i = 0; i < n; i++) {
    below += Math.exp(logTerm);
    if (below > tail) break;
    k = i + 1;
    logTerm += Math.log((n - i) / (i + 1)); // C(n, i + 1) from C(n, i)
  }
  if (k === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[k - 1], sorted[n - k]];
}
