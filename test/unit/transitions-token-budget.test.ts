/**
 * Token-budget auto-continue (docs/loop.md §8, §9.6): continue below 90% of the budget, stop on diminishing returns,
 * never for subagents or without a positive budget.
 */
import { describe, expect, it } from 'vitest';
import { assistantText, continueReasons, drive, emittedOf, params, reply, testConfig, usage } from '../helpers/index.ts';

const replyWithOutput = (outputTokens: number) => reply(assistantText(`wrote ${outputTokens}`), { usage: usage(1_000, outputTokens) });

describe('token budget continuation (docs/loop.md §8)', () => {
  // The original emits nothing when a token-budget turn stops (it only logs the decision): the decision is kept on
  // the Terminal (Extension terminalTokenBudget).
  it('continues while under 90% of the budget and keeps the percentage on the Terminal when it stops, emitting nothing', () => {
    const run = drive(params('go', { tokenBudget: 10_000 }), testConfig(), {
      model: [replyWithOutput(4_000), replyWithOutput(4_000), replyWithOutput(2_000)],
    });
    expect(continueReasons(run)).toEqual(['token_budget_continuation', 'token_budget_continuation']);
    expect(run.terminal?.reason).toBe('completed');
    expect(emittedOf(run, 'system')).toEqual([]);
    expect(run.terminal).toEqual({ reason: 'completed', tokenBudget: { pct: 100, continuations: 2, diminishing: false } });
  });

  it('stops on diminishing returns: after 3 continuations, two deltas below 500 tokens', () => {
    const run = drive(params('go', { tokenBudget: 1_000_000 }), testConfig(), {
      model: [replyWithOutput(5_000), replyWithOutput(5_000), replyWithOutput(100), replyWithOutput(100)],
    });
    // The third continuation remembers a delta of 100; the fourth reply adds 100 again: diminishing.
    expect(continueReasons(run)).toEqual(Array(3).fill('token_budget_continuation'));
    expect(run.requests).toHaveLength(4);
    expect(emittedOf(run, 'system')).toEqual([]);
    expect(run.terminal).toMatchObject({ reason: 'completed', tokenBudget: { diminishing: true } });
  });

  it.each([
    ['a subagent', params('go', { tokenBudget: 10_000, querySource: 'agent:a1' }), testConfig()],
    ['no budget', params('go'), testConfig()],
    ['the feature off', params('go', { tokenBudget: 10_000 }), testConfig({ features: { tokenBudget: false } })],
  ])('never continues for %s', (_label, runParams, config) => {
    const run = drive(runParams, config, { model: [replyWithOutput(100)] });
    expect(run.continues).toEqual([]);
    expect(run.terminal?.reason).toBe('completed');
    expect(emittedOf(run, 'system')).toEqual([]);
  });
});
