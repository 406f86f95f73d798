/**
 * The core A/B's verdict rests on `medianInterval` (bench/stats.ts): a distribution-free confidence interval for the
 * median from two order statistics. Its ranks are checked against the binomial rule worked by hand, and its
 * coverage is checked on simulated draws whose median is known.
 */
import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../../bench/stats.ts';

const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('medianInterval', () => {
  it('picks the order statistics the binomial rule gives at 95%', () => {
    // n = 10: P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so ranks 2 and 9.
    expect(medianInterval(ranks(10))).toEqual([2, 9]);
    // Published 95% ranks: n = 20 -> 6..15, n = 31 -> 10..22, n = 61 -> 23..39.
    expect(medianInterval(ranks(20))).toEqual([6, 15]);
    expect(medianInterval(ranks(31))).toEqual([10, 22]);
    expect(medianInterval(ranks(61))).toEqual([23, 39]);
  });

  it('sorts its input and leaves it as it was', () => {
    const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];
    expect(medianInterval(values)).toEqual([2, 9]);
    expect(values).toEqual([9, 1, 8, 2, 7, 3, 6, 4, 5, 10]);
  });

  it('is null when the values are too few for the level', () => {
    expect(medianInterval(ranks(5))).toBeNull();
    expect(medianInterval(ranks(6))).toEqual([1, 6]);
    expect(medianInterval(ranks(5), 0.9)).toEqual([1, 5]);
  });

  it('covers the true median about as often as its level says', () => {
    // A fixed Lehmer sequence (MINSTD; products stay below 2^53, so exact): deterministic, and skewed draws
    // (exponential) whose median is ln 2.
    let seed = 12345;
    const uniform = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const draws = Array.from({ length: 61 }, () => -Math.log(uniform()));
      const [low, high] = medianInterval(draws) as [number, number];
      if (low <= Math.LN2 && Math.LN2 <= high) covered++;
    }
    // The exact coverage at n = 61 is 1 - 2 P(B <= 22) = 0.967; 2,000 trials put the rate within about ±0.012.
    expect(covered / trials).toBeGreaterThan(0.94);
    expect(covered / trials).toBeLessThan(0.99);
  });
});
