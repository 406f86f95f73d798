/**
 * Aborts (docs/loop.md §4.7, §4.12, §7.5-6): while the model streams, while tools run, while stop hooks run. Every
 * tool_use still gets exactly one result; the reason `interrupt` (the user typed a new message) is silent.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../../src/messages/message-factory.ts';
import {
  assistantText,
  assistantToolUse,
  drive,
  effectsOf,
  emittedOf,
  params,
  reply,
  testConfig,
  type DriveResult,
} from '../helpers/index.ts';

const userTexts = (run: DriveResult) => emittedOf(run, 'user').flatMap((m) => (typeof m.message.content === 'string' ? [m.message.content] : []));
const resultIds = (run: DriveResult) => emittedOf(run, 'user').flatMap((m) => (m.sourceToolUseId ? [m.sourceToolUseId] : []));

const twoTools = [assistantToolUse('t1', 'Read', {}), assistantToolUse('t2', 'Bash', {})];
const noStreaming = testConfig({ features: { streamingToolExecution: false } });

describe('abort while the model streams (docs/loop.md §4.7)', () => {
  it.each([
    ['user_cancel', [INTERRUPTED_TEXT]],
    ['interrupt', []],
  ])('without an executor, reason %s: error results for the streamed tool_uses, interrupted message %j', (reason, texts) => {
    const run = drive(params(), noStreaming, { model: [reply(twoTools)], abort: { on: 'call_model', after: 2, reason } });
    expect(run.terminal?.reason).toBe('aborted_streaming');
    expect(resultIds(run)).toEqual(['t1', 't2']);
    expect(emittedOf(run, 'user').filter((m) => m.sourceToolUseId).every((m) => JSON.stringify(m).includes('"is_error":true'))).toBe(true);
    expect(userTexts(run)).toEqual(texts);
  });

  it('with the streaming executor, the executor drains its tools and no second result is synthesized', () => {
    const run = drive(params(), testConfig(), { model: [reply(twoTools)], abort: { on: 'call_model', after: 2 } });
    expect(effectsOf(run, 'finish_tools')).toHaveLength(1);
    expect(run.terminal?.reason).toBe('aborted_streaming');
    expect(resultIds(run)).toEqual(['t1', 't2']);
    expect(userTexts(run)).toEqual([INTERRUPTED_TEXT]);
  });

  it('an abort before any block arrived ends the run with nothing to answer', () => {
    const run = drive(params(), testConfig(), { model: [reply(assistantText('never seen'))], abort: { on: 'call_model' } });
    expect(run.terminal?.reason).toBe('aborted_streaming');
    expect(run.emitted).toEqual([{ type: 'user', uuid: expect.any(String), message: { role: 'user', content: INTERRUPTED_TEXT } }]);
  });
});

describe('abort while tools run (docs/loop.md §4.12)', () => {
  it('keeps the results that finished, cancels the rest, and says so unless the reason is interrupt', () => {
    for (const reason of ['user_cancel', 'interrupt']) {
      const run = drive(params(), noStreaming, { model: [reply(twoTools)], abort: { on: 'run_tools', after: 1, reason } });
      expect(run.terminal?.reason).toBe('aborted_tools');
      expect(resultIds(run)).toEqual(['t1', 't2']);
      expect(userTexts(run)).toEqual(reason === 'interrupt' ? [] : [INTERRUPTED_DURING_TOOLS_TEXT]);
      expect(effectsOf(run, 'collect_attachments')).toHaveLength(0);
    }
  });

  it('emits the max_turns_reached attachment when the next turn would pass maxTurns', () => {
    const at = (maxTurns: number) =>
      drive(params('go', { maxTurns }), testConfig(), { model: [reply(twoTools)], abort: { on: 'finish_tools' } });
    expect(emittedOf(at(1), 'attachment').map((m) => m.attachment)).toEqual([{ type: 'max_turns_reached', maxTurns: 1, turnCount: 2 }]);
    expect(emittedOf(at(2), 'attachment')).toEqual([]);
  });

  it('an abort while attachments are collected also ends as aborted_tools', () => {
    const run = drive(params(), testConfig(), { model: [reply(twoTools)], abort: { on: 'collect_attachments' } });
    expect(run.terminal?.reason).toBe('aborted_tools');
    expect(userTexts(run)).toEqual([INTERRUPTED_DURING_TOOLS_TEXT]);
  });
});

describe('abort while stop hooks run (docs/loop.md §4.9.4)', () => {
  it('before any hook answered: the hooks count as silent, the turn ends completed without the interrupted message', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('Done.'))],
      stopHooks: [{ blockingErrors: ['never heard'] }],
      abort: { on: 'run_stop_hooks', after: 0 },
    });
    expect(run.terminal).toEqual({ reason: 'completed' });
    expect(userTexts(run)).toEqual([]);
    expect(run.requests).toHaveLength(1);
  });

  it('after a hook answered: what it said is shown, then the interrupted message, and the run ends stop_hook_prevented', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('Done.'))],
      stopHooks: [{ blockingErrors: ['run the tests'] }],
      abort: { on: 'run_stop_hooks', after: 1 },
    });
    expect(run.terminal).toEqual({ reason: 'stop_hook_prevented' });
    const users = emittedOf(run, 'user');
    expect(users.map((m) => m.isMeta === true)).toEqual([true, false]);
    expect(JSON.stringify(users[0].message.content)).toContain('run the tests');
    expect(users[1].message.content).toBe(INTERRUPTED_TEXT);
    // Blocking errors that arrived before the abort do not continue the turn.
    expect(run.requests).toHaveLength(1);
  });

  it('a token budget does not continue a turn whose stop hooks were aborted', () => {
    const run = drive(params('go', { tokenBudget: 1_000_000 }), testConfig(), {
      model: [reply(assistantText('Done.'), { usage: { input_tokens: 10, output_tokens: 10 } })],
      abort: { on: 'run_stop_hooks', after: 0 },
    });
    expect(run.terminal?.reason).toBe('completed');
    expect(run.requests).toHaveLength(1);
  });
});
