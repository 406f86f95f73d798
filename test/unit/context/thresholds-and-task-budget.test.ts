import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../../src/config/config.ts';
import { nextTaskBudgetRemaining } from '../../../src/context/task-budget.ts';
import { contextThresholds } from '../../../src/rules/thresholds.ts';

describe('context thresholds (docs/loop.md §6)', () => {
  it('200k window with 32k output: effective 180,000, autocompact 167,000, blocking 177,000', () => {
    const t = contextThresholds('claude-sonnet-4-6', DEFAULT_CONFIG);
    expect([t.effectiveWindow, t.autocompact, t.blocking]).toEqual([180_000, 167_000, 177_000]);
    expect([t.autocompactWarning, t.blockingWarning]).toEqual([147_000, 157_000]);
  });

  it('with the max-output cap on the reservation is 8,000: 192,000 / 179,000 / 189,000', () => {
    const config = resolveConfig({ features: { ...DEFAULT_CONFIG.features, maxOutputTokensCap: true } });
    const t = contextThresholds('claude-sonnet-4-6', config);
    expect([t.effectiveWindow, t.autocompact, t.blocking]).toEqual([192_000, 179_000, 189_000]);
  });

  it('reserves only the model output when it is below 20,000', () => {
    expect(contextThresholds('claude-3-5-haiku', DEFAULT_CONFIG).effectiveWindow).toBe(200_000 - 8_192);
  });
});

describe('task budget across compactions (docs/loop.md §6)', () => {
  it('starts from the total, then from what remains, never below 0', () => {
    expect(nextTaskBudgetRemaining(undefined, 500_000, 170_000)).toBe(330_000);
    expect(nextTaskBudgetRemaining(null, 500_000, 170_000)).toBe(330_000);
    expect(nextTaskBudgetRemaining(330_000, 500_000, 170_000)).toBe(160_000);
    expect(nextTaskBudgetRemaining(100_000, 500_000, 170_000)).toBe(0);
    expect(nextTaskBudgetRemaining(0, 500_000, 0)).toBe(0);
  });
});
