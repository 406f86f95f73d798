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
