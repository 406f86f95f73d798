/**
 * The count the autocompact and blocking checks compare, at their exact boundaries, as the original computes them
 * (Claude Code 2.1.88): the last response's usage plus round(chars / 4) of each block after it, with no
 * per-message overhead (`utils/tokens.ts:226-261`, `services/tokenEstimation.ts:203-208`); both comparisons
 * inclusive (`services/compact/autoCompact.ts:119-120` `tokenUsage >= autoCompactThreshold`, `:136`
 * `tokenUsage >= blockingLimit`). 200k window, 32k output: autocompact at 167,000, blocking at 177,000.
 */
import { describe, expect, it } from 'vitest';
import { assistantText, assistantToolUse, compactFailed, drive, effectsOf, params, reply, testConfig, usage } from '../helpers/index.ts';

/** One tool call whose reply reported `reported` tokens, answered with a result of `chars` characters. */
function runWith(reported: number, chars: number, features: { autoCompact: boolean }) {
  return drive(params('go'), testConfig({ features }), {
    model: [reply(assistantToolUse('t1', 'Read', {}, { id: 'r1' }), { usage: usage(reported - 500, 500) }), reply(assistantText('done'))],
    tools: { t1: 'x'.repeat(chars) },
    autocompact: () => compactFailed(),
  });
}

describe('autocompact count boundary (autoCompact.ts:119-120, tokens.ts:226-261)', () => {
  it('fires at exactly 167,000: usage 166,500 + a 2,000-character result (500 tokens)', () => {
    expect(effectsOf(runWith(166_500, 2_000, { autoCompact: true }), 'autocompact')).toHaveLength(1);
  });

  it('fires when the estimate rounds half up to 167,000 (1,998 characters = 499.5 tokens)', () => {
    expect(effectsOf(runWith(166_500, 1_998, { autoCompact: true }), 'autocompact')).toHaveLength(1);
  });

  it('does not fire at 166,999 (1,997 characters = 499 tokens)', () => {
    const run = runWith(166_500, 1_997, { autoCompact: true });
    expect(effectsOf(run, 'autocompact')).toHaveLength(0);
    expect(run.terminal?.reason).toBe('completed');
  });

  it('counts the autocompact effect\'s tokenCount as exactly that sum', () => {
    const [effect] = effectsOf(runWith(166_500, 2_000, { autoCompact: true }), 'autocompact');
    expect(effect.tokenCount).toBe(167_000);
  });
});

describe('blocking limit with autocompact off (autoCompact.ts:127-136, query.ts:628-641)', () => {
  it('blocks at exactly 177,000', () => {
    const run = runWith(176_500, 2_000, { autoCompact: false });
    expect(run.terminal?.reason).toBe('blocking_limit');
    expect(run.requests).toHaveLength(1);
  });

  it('does not block at 176,999', () => {
    const run = runWith(176_500, 1_997, { autoCompact: false });
    expect(run.terminal?.reason).toBe('completed');
    expect(run.requests).toHaveLength(2);
  });
});
