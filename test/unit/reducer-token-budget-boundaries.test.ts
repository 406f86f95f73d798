/**
 * Boundaries of the token-budget rule (docs/loop.md §8), found by mutation testing:
 * - continue only while `turnTokens < 0.9 * budget`: exactly 90 % stops;
 * - the completion event is reported only "when any continuation happened or returns diminished": a turn that
 *   reaches 90 % at once ends silently;
 * - the nudge and the other messages a Continue appends count towards the next iteration's context size (docs/loop.md §6:
 *   only messages after the last reported usage are estimated, and they are).
 */
import { describe, expect, it } from 'vitest';
import { contextThresholds } from '../../src/rules/thresholds.ts';
import { estimateTokens } from '../../src/rules/tokens.ts';
import {
  apiError,
  assistantText,
  compacted,
  compactSummary,
  continueReasons,
  continuesOf,
  drive,
  effectsOf,
  emittedOf,
  params,
  reply,
  TEST_MODEL,
  testConfig,
  usage,
} from '../helpers/index.ts';

const replyWithOutput = (outputTokens: number) => reply(assistantText(`wrote ${outputTokens}`), { usage: usage(1_000, outputTokens) });

describe('token budget boundaries (docs/loop.md §8)', () => {
  it('exactly 90 % of the budget stops (continue only below it)', () => {
    const run = drive(params('go', { tokenBudget: 10_000 }), testConfig(), { model: [replyWithOutput(9_000)] });
    expect(run.continues).toEqual([]);
    expect(run.terminal).toEqual({ reason: 'completed' });
  });

  it('one token below 90 % continues', () => {
    const run = drive(params('go', { tokenBudget: 10_000 }), testConfig(), { model: [replyWithOutput(8_999), replyWithOutput(1_000)] });
    expect(continueReasons(run)).toEqual(['token_budget_continuation']);
  });

  it('a turn that reaches 90 % without any continuation reports nothing', () => {
    const run = drive(params('go', { tokenBudget: 10_000 }), testConfig(), { model: [replyWithOutput(9_500)] });
    expect(emittedOf(run, 'system')).toEqual([]);
    expect(run.terminal).toEqual({ reason: 'completed' });
  });

  it('after one continuation, the stop is reported, not as diminishing', () => {
    const run = drive(params('go', { tokenBudget: 10_000 }), testConfig(), { model: [replyWithOutput(5_000), replyWithOutput(5_000)] });
    expect(emittedOf(run, 'system')).toEqual([]);
    expect(run.terminal).toEqual({ reason: 'completed', tokenBudget: { pct: 100, continuations: 1, diminishing: false } });
  });
});

describe('what a Continue appends is counted in the next context size (docs/loop.md §6)', () => {
  it('the recovery prompt pushes a context just below the autocompact threshold over it', () => {
    const config = testConfig();
    const threshold = contextThresholds(TEST_MODEL, config).autocompact;
    // The first reply is truncated: max_output_tokens_recovery appends the (meta) recovery prompt.
    const probe = drive(params(), config, { model: [reply(apiError('max_output_tokens')), reply(assistantText('ok'))] });
    const [recovery] = continuesOf(probe, 'max_output_tokens_recovery');
    const prompt = recovery.after.context.messages.at(-1)!;
    const appended = estimateTokens([prompt]);
    expect(appended).toBeGreaterThan(0);

    const run = drive(params(), config, {
      model: [reply(apiError('max_output_tokens'), { usage: usage(threshold - appended, 0) }), reply(assistantText('ok'), { usage: usage(100, 10) })],
      autocompact: [compacted(compactSummary())],
    });
    expect(continueReasons(run)[0]).toBe('max_output_tokens_recovery');
    expect(effectsOf(run, 'autocompact')).toHaveLength(1);
  });
});
