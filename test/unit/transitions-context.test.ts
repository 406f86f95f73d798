/**
 * Context limits at the start of an iteration (docs/loop.md §4.3-4, §6, §9.3, §9.7): thresholds, when the blocking
 * check applies, the autocompact circuit breaker and what a successful autocompact writes.
 */
import { describe, expect, it } from 'vitest';
import { contextThresholds } from '../../src/rules/thresholds.ts';
import {
  assistantText,
  assistantToolUse,
  compacted,
  compactFailed,
  compactSummary,
  continueReasons,
  drive,
  effectsOf,
  params,
  reply,
  testConfig,
  TEST_MODEL,
  type TestConfigOverrides,
} from '../helpers/index.ts';

/** 30k window, 8k output: effective 22,000, autocompact at 9,000, blocking at 19,000 tokens. */
const smallWindow = { [TEST_MODEL]: { contextWindow: 30_000, maxOutputTokens: 8_000, maxOutputTokensUpperLimit: 8_000 } };
const small = (features: TestConfigOverrides['features'] = {}) => testConfig({ models: smallWindow, features });
/** About 20,000 tokens: over both thresholds of `smallWindow`. */
const bigPrompt = 'x'.repeat(80_000);

describe('thresholds (docs/loop.md §6)', () => {
  it('derive from the window and the output reservation, capped or not', () => {
    expect(contextThresholds(TEST_MODEL, testConfig())).toMatchObject({
      effectiveWindow: 180_000,
      autocompact: 167_000,
      blocking: 177_000,
      autocompactWarning: 147_000,
      blockingWarning: 157_000,
    });
    expect(contextThresholds(TEST_MODEL, testConfig({ features: { maxOutputTokensCap: true } }))).toMatchObject({
      effectiveWindow: 192_000,
      autocompact: 179_000,
      blocking: 189_000,
    });
    expect(contextThresholds(TEST_MODEL, small())).toMatchObject({ autocompact: 9_000, blocking: 19_000 });
  });
});

describe('blocking check (docs/loop.md §4.4)', () => {
  it.each([
    [{ autoCompact: true, reactiveCompact: true, contextCollapse: false }, false],
    [{ autoCompact: true, reactiveCompact: false, contextCollapse: true }, false],
    [{ autoCompact: true, reactiveCompact: false, contextCollapse: false }, true],
    [{ autoCompact: false, reactiveCompact: true, contextCollapse: false }, true],
    [{ autoCompact: false, reactiveCompact: false, contextCollapse: true }, true],
  ])('with %o over the limit (autocompact failing) blocks: %s', (features, blocks) => {
    const run = drive(params(bigPrompt), small(features), {
      model: [reply(assistantText('ok'))],
      autocompact: [compactFailed()],
    });
    expect(run.terminal?.reason).toBe(blocks ? 'blocking_limit' : 'completed');
    expect(run.requests).toHaveLength(blocks ? 0 : 1);
  });

  it('is skipped in an iteration where autocompact succeeded', () => {
    const run = drive(params(bigPrompt), small({ reactiveCompact: false }), {
      model: [reply(assistantText('ok'))],
      autocompact: [compacted(compactSummary())],
    });
    expect(run.terminal?.reason).toBe('completed');
    expect(run.requests[0].messages).toEqual(compactSummary());
  });

  it('counts what snip freed (usage cannot see it)', () => {
    const snipFrees = (tokensFreed: number) =>
      drive(params(bigPrompt), small({ autoCompact: false, reactiveCompact: false, historySnip: true }), {
        model: [reply(assistantText('ok'))],
        contextLayers: { snip: [{ tokensFreed }] },
      });
    expect(snipFrees(0).terminal?.reason).toBe('blocking_limit');
    expect(snipFrees(5_000).terminal?.reason).toBe('completed');
  });

  it.each(['compact', 'session_memory'])('never applies to, and never autocompacts, querySource %s (docs/loop.md §9.7)', (querySource) => {
    const run = drive(params(bigPrompt, { querySource }), small({ reactiveCompact: false }), { model: [reply(assistantText('summary'))] });
    expect(effectsOf(run, 'autocompact')).toHaveLength(0);
    expect(run.terminal?.reason).toBe('completed');
    expect(run.requests[0].messages[0]).toMatchObject({ type: 'user' });
  });
});

describe('autocompact (docs/loop.md §4.3, §9.3)', () => {
  it('stops trying after 3 consecutive failures (circuit breaker)', () => {
    const run = drive(params(bigPrompt), small(), {
      model: (_effect, n) => reply(n <= 5 ? assistantToolUse(`t${n}`, 'Read', {}) : assistantText('done')),
      autocompact: () => compactFailed(),
    });
    expect(run.requests).toHaveLength(6);
    expect(effectsOf(run, 'autocompact')).toHaveLength(3);
    expect(run.state.context.autoCompactTracking?.consecutiveFailures).toBe(3);
    expect(run.terminal?.reason).toBe('completed');
  });

  it('on success replaces the history, resets tracking, spends the task budget and counts turns since', () => {
    const post = compactSummary();
    const run = drive(params(bigPrompt, { taskBudget: { total: 100_000 } }), small(), {
      model: [reply(assistantToolUse('t1', 'Read', {})), reply(assistantText('done'))],
      autocompact: [compacted(post, 20_000)],
    });
    expect(effectsOf(run, 'autocompact')).toHaveLength(1);
    expect(run.emitted.slice(0, 2)).toEqual(post);
    expect(run.requests[0].messages).toEqual(post);
    // No response reported usage before this compaction: it spends nothing, but `remaining` is now sent (docs/loop.md §6).
    expect(run.requests[0].task_budget).toEqual({ total: 100_000, remaining: 100_000 });
    expect(continueReasons(run)).toEqual(['next_turn']);
    const [nextTurn] = run.continues;
    expect(nextTurn.before.context.autoCompactTracking).toEqual({ compacted: true, turnId: expect.any(String), turnCounter: 0, consecutiveFailures: 0 });
    expect(nextTurn.after.context.autoCompactTracking).toMatchObject({ compacted: true, turnCounter: 1 });
  });
});
