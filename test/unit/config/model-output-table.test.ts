/**
 * Default `max_tokens` and its upper limit per model, from the original's table (Claude Code 2.1.88
 * `utils/context.ts:149-209`, `getModelMaxOutputTokens`; windows 200,000, `utils/context.ts:9`). The autocompact
 * reservation stays min(default, 20,000) (`services/compact/autoCompact.ts:33-48`).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, modelInfo, resolveConfig } from '../../../src/config/config.ts';
import { contextThresholds, defaultMaxOutputTokens } from '../../../src/rules/thresholds.ts';
import { assistantText, drive, params, reply } from '../../helpers/index.ts';

const row = (model: string) => {
  const info = modelInfo(DEFAULT_CONFIG, model);
  return [info.maxOutputTokens, info.maxOutputTokensUpperLimit];
};

describe('per-model output table (utils/context.ts:149-209)', () => {
  it.each([
    ['claude-opus-4-6', 64_000, 128_000],
    ['claude-sonnet-4-6', 32_000, 128_000],
    ['claude-opus-4-5-20251101', 32_000, 64_000],
    ['claude-sonnet-4-5-20250929', 32_000, 64_000],
    ['claude-sonnet-4-20250514', 32_000, 64_000],
    ['claude-haiku-4-5-20251001', 32_000, 64_000],
    ['claude-opus-4-1-20250805', 32_000, 32_000],
    ['claude-opus-4-20250514', 32_000, 32_000],
    ['claude-3-7-sonnet-20250219', 32_000, 64_000],
    ['claude-3-5-sonnet-20241022', 8_192, 8_192],
    ['claude-3-5-haiku-20241022', 8_192, 8_192],
    ['claude-3-opus-20240229', 4_096, 4_096],
    ['claude-3-haiku-20240307', 4_096, 4_096],
    ['some-other-model', 32_000, 64_000],
  ])('%s: default %i, upper limit %i', (model, byDefault, upper) => {
    expect(row(model)).toEqual([byDefault, upper]);
  });

  it('a provider-prefixed name finds its family (us.anthropic.claude-opus-4-6-v1)', () => {
    expect(row('us.anthropic.claude-opus-4-6-v1')).toEqual([64_000, 128_000]);
  });

  it('Opus 4.6 is asked for 64,000 tokens; its autocompact threshold still reserves 20,000 (autoCompact.ts:33-48)', () => {
    const config = resolveConfig({ model: 'claude-opus-4-6' });
    expect(defaultMaxOutputTokens('claude-opus-4-6', config)).toBe(64_000);
    expect(contextThresholds('claude-opus-4-6', config)).toMatchObject({ autocompact: 167_000, blocking: 177_000 });
    const run = drive(params('hi'), config, { model: [reply(assistantText('ok'))] });
    expect(run.requests[0].max_tokens).toBe(64_000);
  });
});
