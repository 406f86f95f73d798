/**
 * The autocompact guard asks for the one threshold it compares (`autocompactThreshold`, src/rules/thresholds.ts),
 * not the whole table (`contextThresholds`: a seven-member object and the model's info looked up twice, every
 * turn; docs/benchmarks.md "Round 18: core"). The number is the table's, for every model and switch.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/config/config.ts';
import { autocompactThreshold, contextThresholds } from '../../src/rules/thresholds.ts';
import { guards } from '../../src/machine/guards.ts';

describe('autocompactThreshold', () => {
  const models = [...Object.keys(DEFAULT_CONFIG.models), 'claude-sonnet-4-6-20260101', 'us.anthropic.claude-opus-4-6', 'unknown-model', ''];
  const configs = [
    DEFAULT_CONFIG,
    resolveConfig({ features: { maxOutputTokensCap: true } }),
    resolveConfig({ contextWindow: 1_000_000 }),
    resolveConfig({ thresholds: { maxOutputReservation: 5_000, autocompactBuffer: 17, blockingFromWindow: true } }),
    resolveConfig({ limits: { cappedMaxTokens: 1_000 }, features: { maxOutputTokensCap: true } }),
  ];

  it('is the table\'s autocompact threshold for every model and config (guard)', () => {
    for (const config of configs) for (const model of models) expect(autocompactThreshold(model, config)).toBe(contextThresholds(model, config).autocompact);
  });

  it('is what the guard compares with: it builds no table', () => {
    expect(guards.shouldAutocompact.toString()).not.toMatch(/thresholdsFor|contextThresholds/);
  });
});
