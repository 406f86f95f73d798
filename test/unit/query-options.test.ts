/**
 * Options are split and checked once at the boundary: `query()` refuses an unknown or internal option and a
 * mistyped config key (naming the key it was probably meant to be); a full config is just an override; and only
 * the allow-listed loop parameters reach a run's params (what a session log's header records).
 */
import { describe, expect, it } from 'vitest';
import { runQuery } from '../../src/api/query.ts';
import { UnknownQueryOptionError } from '../../src/api/query-option-keys.ts';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/config/config.ts';
import { ConfigError, parseConfigOverrides } from '../../src/config/parse-config-overrides.ts';
import { runDurableQuery } from '../../src/durable/durable-query.ts';
import { MemoryJournal } from '../../src/durable/journal.ts';
import { LOOP_PARAM_KEYS } from '../../src/runtime/query-options.ts';
import { loopParamsOf } from '../../src/drivers/resolve-run.ts';
import { isTurnloopError } from '../../src/index.ts';
import { scriptedModelCaller } from '../../src/replay/scripted-deps.ts';
import { messageBuilders } from '../../src/testing/message-builders.ts';

const m = messageBuilders();
const deps = () => ({ callModel: scriptedModelCaller([m.reply.text('done')]) });

describe('config overrides, checked once', () => {
  it('a mistyped group key is refused with the key it was meant to be', () => {
    const error = (() => {
      try {
        parseConfigOverrides({ limits: { maxModelCall: 5 } });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('INVALID_CONFIG');
    expect((error as ConfigError).path).toBe('config.limits.maxModelCall');
    expect((error as Error).message).toContain("did you mean 'maxModelCalls'?");
  });

  it('a mistyped top-level key and a wrong type are named too', () => {
    expect(() => parseConfigOverrides({ featurs: { autoCompact: false } })).toThrow("config.featurs: not a config key; did you mean 'features'?");
    expect(() => parseConfigOverrides({ limits: { maxModelCalls: 'many' } })).toThrow(/^config\.limits\.maxModelCalls: .*number/);
  });

  it('a full config is a valid override and resolves to itself', () => {
    const full = resolveConfig({ model: 'claude-opus-4-6', limits: { maxModelCalls: 9 } });
    expect(parseConfigOverrides(full)).toBe(full);
    expect(resolveConfig(full)).toEqual(full);
    expect(parseConfigOverrides(DEFAULT_CONFIG)).toBe(DEFAULT_CONFIG);
  });

  it('query() refuses a mistyped config key before any model call', async () => {
    const callModel = scriptedModelCaller([m.reply.text('done')]);
    const run = runQuery({ prompt: 'hi', config: { limits: { maxModelCall: 5 } } as never, deps: { callModel } });
    await expect(run).rejects.toThrow("config.limits.maxModelCall: not a config key; did you mean 'maxModelCalls'?");
    expect(callModel.calls).toBe(0);
  });

  it('durableQuery() refuses it too', async () => {
    const run = runDurableQuery({ prompt: 'hi', journal: new MemoryJournal(), config: { featurs: {} } as never, deps: deps() });
    await expect(run).rejects.toThrow(ConfigError);
  });

  it('a run with a full config behaves as the same config given as overrides', async () => {
    const overrides = { model: 'claude-opus-4-6' };
    const a = await runQuery({ prompt: 'hi', config: overrides, deps: deps() });
    const b = await runQuery({ prompt: 'hi', config: resolveConfig(overrides), deps: deps() });
    expect(b.terminal).toEqual(a.terminal);
    expect(b.items.length).toBe(a.items.length);
  });
});

describe('query() options', () => {
  it('refuses an unknown option, with the one it was meant to be', async () => {
    const run = runQuery({ prompt: 'hi', maxTurn: 3, deps: deps() } as never);
    await expect(run).rejects.toThrow("query(): 'maxTurn' is not an option; did you mean 'maxTurns'?");
    await expect(runQuery({ prompt: 'hi', maxTurn: 3 } as never)).rejects.toSatisfy((error) => isTurnloopError(error) && error.code === 'UNKNOWN_QUERY_OPTION');
  });

  it('refuses internal plumbing from a caller', async () => {
    for (const internal of ['resumeFrom', 'agentTree']) {
      await expect(runQuery({ prompt: 'hi', [internal]: {}, deps: deps() } as never)).rejects.toBeInstanceOf(UnknownQueryOptionError);
    }
  });
});

describe('the run params allow-list', () => {
  it('copies exactly the allow-listed loop parameters, never a function or plumbing', () => {
    const options = {
      prompt: 'hi', systemPrompt: ['be brief'], maxTurns: 2, runId: 'r', querySource: 'sdk', tokenBudget: 10,
      onStep: () => {}, childDeps: () => ({}), observers: [], config: {}, deps: {}, signal: new AbortController().signal,
      someFutureFunction: () => 1,
    };
    const params = loopParamsOf(options, [], 0, ['Read']);
    expect(Object.keys(params).sort()).toEqual(['maxTurns', 'messages', 'querySource', 'runId', 'startedAt', 'systemPrompt', 'tokenBudget', 'tools']);
    expect(JSON.parse(JSON.stringify(params))).toEqual(params);
  });

  it('lists every LoopParams key the caller sets (the type checker holds the list complete)', () => {
    expect([...LOOP_PARAM_KEYS].sort()).toEqual(
      ['effort', 'fallbackModel', 'maxOutputTokensOverride', 'maxTurns', 'querySource', 'runId', 'systemContext', 'systemPrompt', 'taskBudget', 'thinking', 'tokenBudget', 'userContext'],
    );
  });
});
