/**
 * The exact boundaries of the guards (found by mutation testing: `>=` vs `>`, `some` vs `every`, ...), each pinned
 * by the text of docs/loop.md and observed through `drive()`, not by calling the guard:
 * - docs/loop.md §6 / §4.3: autocompact runs **at** the autocompact threshold (effective window − 13,000), not only above;
 * - docs/loop.md §4.4: the blocking check stops the run when the count is **at or above** the blocking limit;
 * - docs/loop.md §1 / §7.6: every tool_use of the attempt is answered by its own result, and a stray result is ignored;
 * - docs/loop.md §4.9.2: once recovery is exhausted the withheld `max_output_tokens` message is emitted after all.
 *
 * The context size is set exactly with a `max_output_tokens_escalate` Continue, which keeps the history (the
 * truncated output is dropped) and so leaves the count at the usage the API reported.
 */
import { describe, expect, it } from 'vitest';
import type { FeatureSwitches } from '../../src/config/config.ts';
import { step } from '../../src/reducer/step.ts';
import { contextThresholds } from '../../src/rules/thresholds.ts';
import {
  apiError,
  assistantText,
  assistantToolUse,
  compacted,
  compactSummary,
  continueReasons,
  drive,
  effectsOf,
  emittedOf,
  params,
  reply,
  TEST_MODEL,
  testConfig,
  usage,
} from '../helpers/index.ts';

/** First reply truncated with `tokens` of reported usage, escalated; the second iteration sees exactly `tokens`. */
function escalatedAt(tokens: number, features: Partial<FeatureSwitches>) {
  const config = testConfig({ features: { maxOutputTokensCap: true, ...features } });
  return {
    config,
    run: drive(params(), config, {
      model: [reply(apiError('max_output_tokens'), { usage: usage(tokens, 0) }), reply(assistantText('Done.'), { usage: usage(100, 10) })],
      autocompact: [compacted(compactSummary())],
    }),
  };
}

describe('autocompact threshold (docs/loop.md §6: autocompact at effectiveWindow − 13,000)', () => {
  const threshold = contextThresholds(TEST_MODEL, testConfig({ features: { maxOutputTokensCap: true } })).autocompact;

  it('compacts when the context is exactly at the threshold', () => {
    const { run } = escalatedAt(threshold, {});
    expect(continueReasons(run)).toEqual(['max_output_tokens_escalate']);
    expect(effectsOf(run, 'autocompact')).toHaveLength(1);
  });

  it('does not compact one token below it', () => {
    const { run } = escalatedAt(threshold - 1, {});
    expect(effectsOf(run, 'autocompact')).toHaveLength(0);
    expect(run.terminal).toEqual({ reason: 'completed' });
  });
});

describe('blocking limit (docs/loop.md §4.4: stop when the count is >= the blocking limit)', () => {
  // Autocompact off, so the blocking check applies (it is skipped when reactive compact + autocompact are on).
  const blocking = contextThresholds(TEST_MODEL, testConfig({ features: { maxOutputTokensCap: true } })).blocking;

  it('ends the run as blocking_limit exactly at the limit, before calling the model again', () => {
    const { run } = escalatedAt(blocking, { autoCompact: false });
    expect(run.terminal).toEqual({ reason: 'blocking_limit' });
    expect(run.requests).toHaveLength(1);
    expect(emittedOf(run, 'assistant').at(-1)?.apiError?.kind).toBe('prompt_too_long');
  });

  it('calls the model one token below the limit', () => {
    const { run } = escalatedAt(blocking - 1, { autoCompact: false });
    expect(run.requests).toHaveLength(2);
    expect(run.terminal).toEqual({ reason: 'completed' });
  });
});

describe('tool results are matched to their own tool_use (docs/loop.md §1 pairing, §7.6)', () => {
  it.each([
    ['streaming executor', true],
    ['batches after the reply', false],
  ])('two tool_uses in one reply: both results go into the next request (%s)', (_label, streaming) => {
    const run = drive(params(), testConfig({ features: { streamingToolExecution: streaming } }), {
      model: [reply([assistantToolUse('t1', 'Read', { path: 'a' }), assistantToolUse('t2', 'Read', { path: 'b' })]), reply(assistantText('Done.'))],
      tools: { t1: 'contents of a', t2: 'contents of b' },
    });
    expect(continueReasons(run)).toEqual(['next_turn']);
    // Each tool's own answer, not an error result made up for an "unanswered" tool_use.
    const results = run.requests[1].messages.flatMap((m) =>
      m.type === 'user' && Array.isArray(m.message.content)
        ? m.message.content.flatMap((b) => (b.type === 'tool_result' ? [[b.tool_use_id, b.content, b.is_error ?? false]] : []))
        : [],
    );
    expect(results.sort()).toEqual([
      ['t1', 'contents of a', false],
      ['t2', 'contents of b', false],
    ]);
  });

  it('a result for an id the attempt never asked for is ignored', () => {
    const run = drive(params(), testConfig({ features: { streamingToolExecution: false } }), {
      model: [reply(assistantToolUse('t1', 'Read', {})), reply(assistantText('Done.'))],
      tools: { t1: 'contents' },
    });
    // Feed a stray result into the state the run was in while tools ran, and check nothing is recorded.
    const running = run.steps.find((s) => JSON.stringify(s.state.value).includes('runningTools'));
    expect(running).toBeDefined();
    const before = running!.state;
    const stray = {
      type: 'tool_result' as const,
      toolUseId: 'never-asked',
      message: { type: 'user' as const, uuid: 'stray', message: { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'never-asked', content: 'x' }] } },
    };
    const next = step(before, stray, testConfig({ features: { streamingToolExecution: false } }));
    expect(next.effects).toEqual([]);
    expect(next.state.context.iter.toolResults).toEqual(before.context.iter.toolResults);
  });
});

describe('recovery exhausted (docs/loop.md §4.9.2: "else emit the withheld message and fall through")', () => {
  it('the fourth truncated reply is shown to the user, then the run completes without stop hooks', () => {
    const truncated = () => reply(apiError('max_output_tokens'));
    const run = drive(params(), testConfig(), { model: [truncated(), truncated(), truncated(), truncated()] });
    expect(continueReasons(run)).toEqual(Array(3).fill('max_output_tokens_recovery'));
    const errors = emittedOf(run, 'assistant').filter((m) => m.apiError);
    expect(errors).toHaveLength(1);
    expect(errors[0].apiError?.kind).toBe('max_output_tokens');
    expect(effectsOf(run, 'run_stop_hooks')).toEqual([]);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toHaveLength(1);
    expect(run.terminal).toEqual({ reason: 'completed', apiError: errors[0].apiError });
  });
});
