/**
 * Aborts (SPEC §4.7, §4.12, §7.5-6): while the model streams, while tools run, while stop hooks run. Every
 * tool_use still gets exactly one result; the reason `interrupt` (the user typed a new message) is silent.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../../src/reducer/message-factory.ts';
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

describe('abort while the model streams (SPEC §4.7)', () => {
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

describe('abort while tools run (SPEC §4.12)', () => {
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

describe('abort while stop hooks run (SPEC §4.9.4)', () => {
  it('ends the run as stop_hook_prevented', () => {
    const run = drive(params(), testConfig(), { model: [reply(assistantText('Done.'))], abort: { on: 'run_stop_hooks' } });
    expect(run.terminal).toMatchObject({ reason: 'stop_hook_prevented' });
    expect(run.requests).toHaveLength(1);
  });
});
