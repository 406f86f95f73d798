/**
 * The 7 Continue transitions of docs/loop.md §5, one test each. Every test checks the state writes of the §5 table
 * field by field: "keep" means equal to the state just before the Continue, "none" means null/false.
 * Where cheap, the scenario first sets a field to a non-default value so that "keep" and "reset" differ.
 */
import { describe, expect, it } from 'vitest';
import type { ContinueReason } from '../../src/data/outcomes.ts';
import {
  apiError,
  assistantText,
  assistantToolUse,
  attachment,
  compacted,
  compactSummary,
  continueReasons,
  continuesOf,
  drive,
  effectsOf,
  emittedOf,
  params,
  reply,
  testConfig,
  toolResultMessage,
  usage,
  userText,
  type ContinueRecord,
  type DriveResult,
} from '../helpers/index.ts';

const KEEP = Symbol('keep');
type Column =
  | 'messages'
  | 'autoCompactTracking'
  | 'maxOutputTokensRecoveryCount'
  | 'hasAttemptedReactiveCompact'
  | 'maxOutputTokensOverride'
  | 'pendingToolUseSummary'
  | 'stopHookActive'
  | 'turnCount';

/** One row of the docs/loop.md §5 table: every column must be given. */
function expectWrites(record: ContinueRecord, row: Record<Column, unknown>) {
  for (const [column, want] of Object.entries(row) as Array<[Column, unknown]>) {
    const expected = want === KEEP ? record.before.context[column] : want;
    expect(record.after.context[column], `${record.transition.reason}: ${column}`).toEqual(expected);
  }
}

/** The only Continue of `reason` in the run. */
function only(run: DriveResult, reason: ContinueReason) {
  const records = continuesOf(run, reason);
  expect(records, `continues: ${continueReasons(run).join(', ')}`).toHaveLength(1);
  return records[0];
}

/** Messages emitted by the step that took the Continue (the engine's own meta messages). */
function emittedBy(run: DriveResult, record: ContinueRecord) {
  return run.steps[record.step].effects.flatMap((e) => (e.type === 'emit' ? [e.message] : []));
}

const truncated = assistantText('The first half of a long ans');
const cutOff = apiError('max_output_tokens', 'Output stopped at max_tokens');
const tooLong = apiError('prompt_too_long', 'prompt is too long');

describe('continue transitions and their state writes (docs/loop.md §5)', () => {
  it('collapse_drain_retry: a withheld prompt-too-long drains the collapse store and retries on the drained history', () => {
    const start = { messages: [userText('old context', 'u-old'), userText('Please help.')] };
    const drainEdits = [{ op: 'remove' as const, uuids: ['u-old'] }];
    const run = drive(start, testConfig({ features: { contextCollapse: true } }), {
      // A recovery first, so that the recovery count has something to keep.
      model: [reply([truncated, cutOff]), reply(tooLong), reply(assistantText('Done.'))],
      collapseDrain: [{ committed: 2, edits: drainEdits }],
    });
    expect(continueReasons(run)).toEqual(['max_output_tokens_recovery', 'collapse_drain_retry']);
    const record = only(run, 'collapse_drain_retry');
    expect(record.transition).toEqual({ reason: 'collapse_drain_retry', committed: 2 });
    const base = record.before.context.messages;
    expectWrites(record, {
      messages: base.filter((m) => m.uuid !== 'u-old'),
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: 1,
      hasAttemptedReactiveCompact: KEEP,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: null,
      stopHookActive: false,
      turnCount: KEEP,
    });
    expect(run.terminal?.reason).toBe('completed');
    expect(run.emitted).not.toContain(tooLong);
  });

  it('reactive_compact_retry: a withheld prompt-too-long is compacted once and the request retried on the summary', () => {
    const post = compactSummary();
    const run = drive(params(), testConfig(), {
      model: [reply([truncated, cutOff]), reply(tooLong), reply(assistantText('Done.'))],
      reactiveCompact: [compacted(post, 150_000)],
    });
    expect(continueReasons(run)).toEqual(['max_output_tokens_recovery', 'reactive_compact_retry']);
    const record = only(run, 'reactive_compact_retry');
    expectWrites(record, {
      messages: post,
      autoCompactTracking: null,
      maxOutputTokensRecoveryCount: 1,
      hasAttemptedReactiveCompact: true,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: null,
      stopHookActive: false,
      turnCount: KEEP,
    });
    expect(emittedBy(run, record)).toEqual(post);
    expect(effectsOf(run, 'reactive_compact')[0].trigger).toBe('prompt_too_long');
    expect(run.requests[2].messages).toEqual(post);
  });

  it('max_output_tokens_escalate: with the output cap on, a cut-off reply is retried once with max_tokens 64,000', () => {
    const config = testConfig({ features: { maxOutputTokensCap: true } });
    const run = drive(params(), config, {
      // A blocking stop hook first, so that stopHookActive is true before the escalation clears it.
      model: [reply(assistantText('First try.')), reply([truncated, cutOff]), reply(assistantText('Complete answer.'))],
      stopHooks: [{ blockingErrors: ['add tests'] }],
    });
    expect(continueReasons(run)).toEqual(['stop_hook_blocking', 'max_output_tokens_escalate']);
    const record = only(run, 'max_output_tokens_escalate');
    expect(record.before.context.stopHookActive).toBe(true);
    expectWrites(record, {
      messages: record.before.context.messages, // base: the truncated output is dropped
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: KEEP,
      hasAttemptedReactiveCompact: KEEP,
      maxOutputTokensOverride: 64_000,
      pendingToolUseSummary: null,
      stopHookActive: false,
      turnCount: KEEP,
    });
    expect(run.requests.map((r) => r.max_tokens)).toEqual([8_000, 8_000, 64_000]);
    expect(run.requests[2].messages).toEqual(run.requests[1].messages);
    expect(emittedBy(run, record)).toEqual([]);
  });

  it('max_output_tokens_recovery: a cut-off reply is kept and followed by a meta prompt to resume mid-thought, never emitted (query.ts:1223-1250)', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('First try.')), reply([truncated, cutOff]), reply(assistantText('...wer, finished.'))],
      stopHooks: [{ blockingErrors: ['add tests'] }],
    });
    expect(continueReasons(run)).toEqual(['stop_hook_blocking', 'max_output_tokens_recovery']);
    const record = only(run, 'max_output_tokens_recovery');
    expect(record.transition).toEqual({ reason: 'max_output_tokens_recovery', attempt: 1 });
    // The prompt goes to the model only: the original never yields it.
    expect(emittedBy(run, record)).toEqual([]);
    const prompt = record.after.context.messages.at(-1);
    expect(prompt).toMatchObject({ type: 'user', isMeta: true });
    expectWrites(record, {
      messages: [...record.before.context.messages, truncated, cutOff, prompt],
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: 1,
      hasAttemptedReactiveCompact: KEEP,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: null,
      stopHookActive: false,
      turnCount: KEEP,
    });
    expect(run.emitted).not.toContain(cutOff);
  });

  it('stop_hook_blocking: blocking errors become meta feedback and the reactive-compact flag survives (docs/loop.md §9.1)', () => {
    const answer = assistantText('Here is my answer.');
    const run = drive(params(), testConfig(), {
      model: [reply(tooLong), reply(answer), reply(assistantText('Fixed.'))],
      reactiveCompact: [compacted(compactSummary())],
      stopHooks: [{ blockingErrors: ['lint failed', 'tests failed'] }],
    });
    expect(continueReasons(run)).toEqual(['reactive_compact_retry', 'stop_hook_blocking']);
    const record = only(run, 'stop_hook_blocking');
    const feedback = emittedBy(run, record);
    expect(feedback).toHaveLength(2);
    expect(feedback.every((m) => m.type === 'user' && m.isMeta === true)).toBe(true);
    expect(record.before.context.hasAttemptedReactiveCompact).toBe(true);
    expectWrites(record, {
      messages: [...record.before.context.messages, answer, ...feedback],
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: 0,
      hasAttemptedReactiveCompact: true,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: null,
      stopHookActive: true,
      turnCount: KEEP,
    });
    expect(effectsOf(run, 'run_stop_hooks').map((e) => e.stopHookActive)).toEqual([false, true]);
    expect(run.terminal?.reason).toBe('completed');
  });

  it('token_budget_continuation: below 90% of the token budget the turn goes on with a meta nudge, never emitted (query.ts:1308-1330)', () => {
    const work = assistantText('Some work.');
    const run = drive(params('build it', { tokenBudget: 10_000 }), testConfig(), {
      model: [reply(tooLong), reply(work, { usage: usage(100, 1_000) }), reply(assistantText('More work.'), { usage: usage(100, 9_000) })],
      reactiveCompact: [compacted(compactSummary())],
    });
    expect(continueReasons(run)).toEqual(['reactive_compact_retry', 'token_budget_continuation']);
    const record = only(run, 'token_budget_continuation');
    expect(emittedBy(run, record)).toEqual([]);
    const nudge = record.after.context.messages.at(-1);
    expect(nudge).toMatchObject({ type: 'user', isMeta: true });
    expect(JSON.stringify(nudge)).toContain('10%');
    expectWrites(record, {
      messages: [...record.before.context.messages, work, nudge],
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: 0,
      hasAttemptedReactiveCompact: false,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: null,
      stopHookActive: false,
      turnCount: KEEP,
    });
    expect(record.after.context.tokenBudget).toMatchObject({ continuationCount: 1, lastDeltaTokens: 1_000, lastGlobalTurnTokens: 1_000 });
    expect(run.terminal?.reason).toBe('completed');
  });

  it('next_turn: tool results and attachments follow the assistant message, turnCount goes up, per-turn guards reset', () => {
    const call = assistantToolUse('t1', 'Read', { path: 'README.md' });
    const queued = attachment({ type: 'queued_command', prompt: 'also check the docs' });
    const run = drive(params(), testConfig({ features: { toolUseSummaries: true } }), {
      // Reactive compact (flag true), then a blocking stop hook (stopHookActive true), then a tool call.
      model: [reply(tooLong), reply(assistantText('Answer.')), reply(call), reply(assistantText('Read it.'))],
      reactiveCompact: [compacted(compactSummary())],
      stopHooks: [{ blockingErrors: ['read the README first'] }],
      tools: { t1: '# turnloop' },
      attachments: [[queued]],
    });
    expect(continueReasons(run)).toEqual(['reactive_compact_retry', 'stop_hook_blocking', 'next_turn']);
    const record = only(run, 'next_turn');
    const [summaryStart] = effectsOf(run, 'start_tool_use_summary');
    expect(record.before.context).toMatchObject({ hasAttemptedReactiveCompact: true, stopHookActive: true });
    expectWrites(record, {
      messages: [...record.before.context.messages, call, toolResultMessage('t1', '# turnloop'), queued],
      autoCompactTracking: KEEP,
      maxOutputTokensRecoveryCount: 0,
      hasAttemptedReactiveCompact: false,
      maxOutputTokensOverride: null,
      pendingToolUseSummary: { summaryId: summaryStart.summaryId, toolUseIds: ['t1'], summary: 'Summary of 1 tool call(s)' },
      stopHookActive: true,
      turnCount: 2,
    });
    // The summary of this turn's tools is shown after the next model reply (docs/loop.md §4.8).
    expect(emittedOf(run, 'tool_use_summary')).toMatchObject([{ precedingToolUseIds: ['t1'] }]);
    expect(run.terminal?.reason).toBe('completed');
  });
});
