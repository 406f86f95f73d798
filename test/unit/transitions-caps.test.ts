/**
 * The finite caps of docs/loop.md §9.10 (an extension): a stop hook that always blocks, or any environment at all,
 * cannot make one run call the model without bound. Each cap ends the run through a Terminal that says why,
 * and emits a `cap_reached` system message.
 */
import { describe, expect, it } from 'vitest';
import { assistantText, assistantToolUse, continueReasons, drive, emittedOf, params, reply, testConfig } from '../helpers/index.ts';

const alwaysText = () => reply(assistantText('Still not done.'));

describe('caps (docs/loop.md §9.10)', () => {
  it('limits.maxModelCalls ends the run as max_turns with cap maxModelCalls before one more call', () => {
    const run = drive(params(), testConfig({ limits: { maxModelCalls: 3 } }), {
      model: (_effect, n) => reply(assistantToolUse(`t${n}`, 'Read', {})),
    });
    expect(run.requests).toHaveLength(3);
    expect(run.terminal).toMatchObject({ reason: 'max_turns', cap: 'maxModelCalls', turnCount: 4 });
    const [capMessage] = emittedOf(run, 'system');
    expect(capMessage).toMatchObject({ subtype: 'cap_reached', data: { cap: 'maxModelCalls' } });
    expect(capMessage.content).toContain('limits.maxModelCalls');
  });

  it('limits.maxStopHookBlocking ends a stop hook that always blocks as stop_hook_prevented with its cap', () => {
    const run = drive(params(), testConfig({ limits: { maxStopHookBlocking: 2 } }), {
      model: alwaysText,
      stopHooks: () => ({ blockingErrors: ['keep going'] }),
    });
    expect(continueReasons(run)).toEqual(['stop_hook_blocking', 'stop_hook_blocking']);
    expect(run.requests).toHaveLength(3);
    expect(run.terminal).toMatchObject({ reason: 'stop_hook_prevented', cap: 'maxStopHookBlocking' });
    expect(emittedOf(run, 'system')).toMatchObject([{ subtype: 'cap_reached', data: { cap: 'maxStopHookBlocking' } }]);
  });

  it('the model-call cap also bounds stop-hook loops when it is the smaller cap', () => {
    const run = drive(params(), testConfig({ limits: { maxModelCalls: 5, maxStopHookBlocking: 100 } }), {
      model: alwaysText,
      stopHooks: () => ({ blockingErrors: ['keep going'] }),
    });
    expect(run.requests).toHaveLength(5);
    expect(run.terminal).toMatchObject({ reason: 'max_turns', cap: 'maxModelCalls', turnCount: 1 });
  });
});

describe('maxTurns (docs/loop.md §4.15)', () => {
  it('maxTurns 2 allows two model calls and their tools', () => {
    const run = drive(params('go', { maxTurns: 2 }), testConfig(), {
      model: (_effect, n) => reply(assistantToolUse(`t${n}`, 'Read', {})),
    });
    expect(run.requests).toHaveLength(2);
    expect(continueReasons(run)).toEqual(['next_turn']);
    expect(run.terminal).toEqual({ reason: 'max_turns', turnCount: 3 });
  });
});
