/**
 * A reply's concurrency flags (`ToolRegistry.concurrencySafeFor`) are a plain object (`Object.prototype`, as a parsed
 * log's) that V8 keeps as a hash table, so the reducer keeps the event's own object in its state instead of copying
 * it (`mergedFlags`): a spread copy keyed by tool-use ids made a new hidden class per reply, about a twentieth of a
 * cold turn's samples (docs/benchmarks.md "Round 15: less work per turn"). The same keys, order and JSON as before.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../../src/config/config.ts';
import type { ModelCaller, ModelStreamItem } from '../../../src/data/deps.ts';
import type { EventOf } from '../../../src/data/events.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import type { StepRecord } from '../../../src/runtime/query-options.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { createToolRegistry } from '../../../src/tools/registry.ts';
import { replay } from '../../../src/replay/replay.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { tempLogPath } from '../replay/fixtures.ts';
import { echoTool as echo } from '../../helpers/echo-tool.ts';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the only way to reach a V8 intrinsic from a test
const hasFastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const config = resolveConfig({ sessionId: 'flags', limits: { maxModelCalls: 1_000 } });
const USAGE = { input_tokens: 10, output_tokens: 2 };

/** `turns` replies with one echo call each (random-looking ids, as the API's), then a text reply. */
function caller(turns: number, run: number): ModelCaller {
  let call = 0;
  return async function* (request): AsyncGenerator<ModelStreamItem> {
    call += 1;
    const id = `msg_${call}`;
    const block = call <= turns
      ? { type: 'tool_use' as const, id: `toolu_${run}x${call}`, name: 'echo', input: { text: `ping ${call}` } }
      : { type: 'text' as const, text: 'done' };
    const stopReason = block.type === 'text' ? 'end_turn' : 'tool_use';
    const message: AssistantMessage = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
  };
}

async function steps(run: number): Promise<StepRecord[]> {
  const records: StepRecord[] = [];
  const { terminal } = await runLoopToEnd({ prompt: 'Echo.', config, tools: [echo], deps: { callModel: caller(4, run) }, onStep: (step) => void records.push(step) });
  expect(terminal.reason).toBe('completed');
  return records;
}

describe('a reply\'s concurrency flags', () => {
  it('are kept by the state as the event gave them, a plain object, one hidden class for every reply', async () => {
    const flags: object[] = [];
    for (let run = 0; run < 3; run++) {
      for (const step of await steps(run)) {
        if (step.event?.type !== 'model_message') continue;
        const event = step.event as EventOf<'model_message'>;
        if (!event.concurrencySafe) continue;
        expect(step.state.context.iter.concurrencySafe).toBe(event.concurrencySafe);
        expect(Object.getPrototypeOf(event.concurrencySafe)).toBe(Object.prototype);
        flags.push(event.concurrencySafe);
      }
    }
    expect(flags.length).toBe(12);
    expect(JSON.stringify(flags[5])).toBe('{"toolu_1x2":true}');
    expect(flags.filter((f) => hasFastProperties(f))).toEqual([]);
    expect(flags.filter((f) => !haveSameMap(f, flags[0]))).toEqual([]);
  });

  it('list the tool-use ids in the reply\'s order, integer-like ids first as in any object, unknown tools false', () => {
    const unsafe = defineTool({ name: 'unsafe', description: 'x', inputSchema: z.object({}), call: () => ({ content: 'ok' }) });
    const registry = createToolRegistry([echo, unsafe]);
    const uses = [
      { type: 'tool_use' as const, id: 'b', name: 'echo', input: { text: 'x' } },
      { type: 'tool_use' as const, id: 'a', name: 'unsafe', input: {} },
      { type: 'tool_use' as const, id: '7', name: 'nope', input: {} },
      { type: 'tool_use' as const, id: 'constructor', name: 'echo', input: { text: 'y' } },
    ];
    const flags = registry.concurrencySafeFor(uses);
    expect(Object.keys(flags)).toEqual(['7', 'b', 'a', 'constructor']);
    expect(flags).toEqual({ b: true, a: false, 7: false, constructor: true });
    expect(JSON.stringify(flags)).toBe(JSON.stringify(JSON.parse('{"7":false,"b":true,"a":false,"constructor":true}')));
    expect(Object.getPrototypeOf(flags)).toBe(Object.prototype);
    expect(registry.concurrencySafeFor([])).toEqual({});
  });

  it('keep a flag for a tool-use id `__proto__` as an own member, in the run, its log and its replay', async () => {
    const registry = createToolRegistry([echo]);
    const flags = registry.concurrencySafeFor([
      { type: 'tool_use' as const, id: '__proto__', name: 'echo', input: { text: 'x' } },
      { type: 'tool_use' as const, id: 'b', name: 'echo', input: { text: 'y' } },
    ]);
    expect(Object.keys(flags)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(flags)).toBe(Object.prototype);
    expect(JSON.stringify(flags)).toBe('{"__proto__":true,"b":true}');

    // Live: the `__proto__` call may run beside the other; the log holds the flag and replays alike.
    let call = 0;
    const callModel: ModelCaller = async function* (request): AsyncGenerator<ModelStreamItem> {
      call += 1;
      const content = call === 1
        ? [{ type: 'tool_use' as const, id: '__proto__', name: 'echo', input: { text: 'a' } }, { type: 'tool_use' as const, id: 'b', name: 'echo', input: { text: 'b' } }]
        : [{ type: 'text' as const, text: 'done' }];
      const stopReason = call === 1 ? 'tool_use' : 'end_turn';
      const message: AssistantMessage = { type: 'assistant', uuid: `m${call}:0`, message: { id: `m${call}`, role: 'assistant', model: request.model, content, stop_reason: stopReason, usage: USAGE } };
      yield { kind: 'event', event: { type: 'model_message', message } };
      yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
    };
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config });
    // Whether the `__proto__` call may run beside others: as its queued call (streaming) or its batch says.
    const safe: boolean[] = [];
    const { terminal } = await runLoopToEnd({
      prompt: 'Echo.',
      config,
      tools: [echo],
      deps: { callModel },
      onStep: (step) => {
        recorder(step);
        for (const effect of step.effects) {
          if (effect.type === 'enqueue_tool' && effect.toolUse.id === '__proto__') safe.push(effect.concurrencySafe);
          if (effect.type === 'run_tools') for (const batch of effect.batches) if (batch.toolUses.some((use) => use.id === '__proto__')) safe.push(batch.concurrent);
        }
      },
    });
    recorder.close();
    expect(terminal.reason).toBe('completed');
    expect(safe).toEqual([true]);
    expect(readFileSync(path, 'utf8')).toContain('"concurrencySafe":{"__proto__":true,"b":true}');
    expect(replay(path).steps).toBeGreaterThan(0);
  });
});
