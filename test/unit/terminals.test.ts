/**
 * The 10 Terminal transitions of docs/loop.md §5, one test each: the scenario that reaches it, the Terminal it yields,
 * and what the user sees on the way out. Every run ends with exactly one `terminated` effect, last (docs/loop.md §9.8).
 */
import { describe, expect, it } from 'vitest';
import {
  apiError,
  assistantText,
  assistantToolUse,
  compactFailed,
  drive,
  effectsOf,
  emittedOf,
  modelFails,
  params,
  reply,
  testConfig,
  TEST_MODEL,
  type DriveResult,
} from '../helpers/index.ts';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../../src/messages/message-factory.ts';

function expectEndsWith(run: DriveResult, reason: string) {
  expect(run.stalled).toBe(false);
  expect(run.terminal?.reason).toBe(reason);
  expect(run.state.value).toBe(reason);
  const last = run.effects[run.effects.length - 1];
  expect(last).toMatchObject({ type: 'terminated', terminal: run.terminal });
  expect(effectsOf(run, 'terminated')).toHaveLength(1);
}

/** A model with a 30k window and 8k output: blocking limit 19,000 tokens (docs/loop.md §6 formula). */
const smallWindow = { [TEST_MODEL]: { contextWindow: 30_000, maxOutputTokens: 8_000, maxOutputTokensUpperLimit: 8_000 } };

describe('terminal transitions (docs/loop.md §5)', () => {
  it('blocking_limit: an over-limit history with no recovery configured stops before calling the model', () => {
    const config = testConfig({ models: smallWindow, features: { autoCompact: false, reactiveCompact: false } });
    const run = drive(params('x'.repeat(80_000)), config, { model: [] });
    expectEndsWith(run, 'blocking_limit');
    expect(run.requests).toHaveLength(0);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toEqual([]); // the original returns at once, no hooks
    const [error] = emittedOf(run, 'assistant');
    expect(error.apiError?.kind).toBe('prompt_too_long');
  });

  it('image_error: an image error thrown by the model call emits a media-size API error', () => {
    const run = drive(params(), testConfig(), { model: [modelFails('image too large', 'image')] });
    expectEndsWith(run, 'image_error');
    expect(emittedOf(run, 'assistant').map((m) => m.apiError?.kind)).toEqual(['media_size']);
  });

  it('model_error: any other model failure carries the error and emits it as an API-error message', () => {
    const run = drive(params(), testConfig(), { model: [modelFails('socket hang up')] });
    expectEndsWith(run, 'model_error');
    expect(run.terminal).toEqual({ reason: 'model_error', error: { message: 'socket hang up' } });
    const [error] = emittedOf(run, 'assistant');
    expect(error.apiError).toEqual({ kind: 'other', text: 'socket hang up' });
  });

  it('aborted_streaming: an abort while the model streams ends the run with the interrupted message', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('Half an ans'))],
      abort: { on: 'call_model', after: 1 },
    });
    expectEndsWith(run, 'aborted_streaming');
    expect(emittedOf(run, 'user').map((m) => m.message.content)).toEqual([INTERRUPTED_TEXT]);
    expect(effectsOf(run, 'run_stop_hooks')).toHaveLength(0);
  });

  it('prompt_too_long: a withheld prompt-too-long that reactive compact cannot fix is shown, without stop hooks', () => {
    const tooLong = apiError('prompt_too_long', 'prompt is too long: 210000 tokens > 200000 maximum');
    const run = drive(params(), testConfig(), { model: [reply(tooLong)], reactiveCompact: [compactFailed()] });
    expectEndsWith(run, 'prompt_too_long');
    expect(effectsOf(run, 'reactive_compact')).toHaveLength(1);
    expect(effectsOf(run, 'run_stop_hooks')).toHaveLength(0);
    // The original fires the stop-failure hooks on this ending too (docs/loop.md §4.9.1).
    expect(effectsOf(run, 'run_stop_failure_hooks')).toMatchObject([{ error: tooLong }]);
    expect(run.terminal).toMatchObject({ reason: 'prompt_too_long', apiError: tooLong.apiError });
    // Withheld while recovery was possible, released at the end.
    expect(run.emitted.filter((m) => m.type === 'assistant')).toEqual([tooLong]);
    const releaseStep = run.steps.findIndex((s) => s.effects.some((e) => e.type === 'emit' && e.message === tooLong));
    expect(run.steps[releaseStep].event.type).toBe('reactive_compact_result');
  });

  it('completed: a reply without tool_use that the stop hooks accept ends the run', () => {
    const answer = assistantText('All done.');
    const run = drive(params(), testConfig(), { model: [reply(answer)] });
    expectEndsWith(run, 'completed');
    expect(run.terminal).toEqual({ reason: 'completed' });
    expect(run.emitted).toEqual([answer]);
    expect(effectsOf(run, 'run_stop_hooks')).toHaveLength(1);
  });

  it('stop_hook_prevented: a stop hook that prevents continuation ends the run with its reason', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('Done?'))],
      stopHooks: [{ preventContinuation: true, stopReason: 'policy says stop', blockingErrors: ['ignored'] }],
    });
    expectEndsWith(run, 'stop_hook_prevented');
    expect(run.terminal).toEqual({ reason: 'stop_hook_prevented', stopReason: 'policy says stop' });
    expect(run.requests).toHaveLength(1);
    // As the original: the blocking messages, then the hook_stopped_continuation attachment (docs/loop.md §4.9.4).
    const [feedback, stopped] = run.emitted.slice(1);
    expect(feedback).toMatchObject({ type: 'user', isMeta: true });
    expect(JSON.stringify(feedback)).toContain('ignored');
    expect(stopped).toMatchObject({ type: 'attachment', attachment: { type: 'hook_stopped_continuation', message: 'policy says stop', hookEvent: 'Stop' } });
  });

  it('aborted_tools: an abort while tools run ends the run with the interrupted-for-tool-use message', () => {
    const run = drive(params(), testConfig(), {
      model: [reply([assistantToolUse('t1', 'Bash', { command: 'sleep 100' })])],
      abort: { on: 'finish_tools', reason: 'user_cancel' },
    });
    expectEndsWith(run, 'aborted_tools');
    expect(emittedOf(run, 'user').map((m) => m.message.content).at(-1)).toBe(INTERRUPTED_DURING_TOOLS_TEXT);
    expect(emittedOf(run, 'attachment')).toHaveLength(0);
  });

  it('hook_stopped: a tool hook that prevents continuation ends the run after the tools', () => {
    const stopped = { type: 'attachment' as const, uuid: 'hook-stop', attachment: { type: 'hook_stopped_continuation' as const, message: 'no more' } };
    const run = drive(params(), testConfig(), {
      model: [reply(assistantToolUse('t1', 'Write', { path: 'a' }))],
      tools: { t1: { content: 'written', extra: [stopped], preventContinuation: true } },
    });
    expectEndsWith(run, 'hook_stopped');
    expect(run.emitted).toContainEqual(stopped);
    expect(run.requests).toHaveLength(1);
  });

  it('max_turns: maxTurns 1 allows one model call and its tools, then stops with turnCount 2', () => {
    const run = drive(params('go', { maxTurns: 1 }), testConfig(), {
      model: [reply(assistantToolUse('t1', 'Read', { path: 'a' }))],
    });
    expectEndsWith(run, 'max_turns');
    expect(run.terminal).toEqual({ reason: 'max_turns', turnCount: 2 });
    expect(run.requests).toHaveLength(1);
    expect(emittedOf(run, 'user').map((m) => m.sourceToolUseId)).toEqual(['t1']);
    expect(emittedOf(run, 'attachment').map((m) => m.attachment)).toEqual([{ type: 'max_turns_reached', maxTurns: 1, turnCount: 2 }]);
  });
});
