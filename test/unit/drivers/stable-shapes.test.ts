/**
 * Objects the run makes on every turn or every run keep one V8 hidden class from turn to turn and run to run.
 * V8 (Node 20) gives a spread copy that gains a member (`{ ...event, concurrencySafe }`, `{ ...rest, systemPrompt }`)
 * a new hidden class on every call once the site is warm: about a microsecond each, and every reader of the object
 * then meets a shape it has never seen (docs/benchmarks.md, "Round 11: short runs"). Checked with V8's own
 * `%HaveSameMap`, and for the reply event also the members and their order (the log's bytes follow them).
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { ModelCaller, ModelStreamItem } from '../../../src/data/deps.ts';
import type { EventOf } from '../../../src/data/events.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { EFFECT_TYPES } from '../../../src/data/effects.ts';
import { executorOf } from '../../../src/runtime/effect-executors.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import type { StepRecord } from '../../../src/runtime/query-options.ts';
import { echoTool as echo } from '../../helpers/echo-tool.ts';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the only way to reach a V8 intrinsic from a test
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const config = resolveConfig({ sessionId: 'shapes', limits: { maxModelCalls: 1_000 } });
const USAGE = { input_tokens: 10, output_tokens: 2 };

/** Tool calls for `turns` replies, then a text reply; `shape` builds each reply event. */
function caller(turns: number, shape: (message: AssistantMessage) => EventOf<'model_message'>): ModelCaller {
  let call = 0;
  return async function* (request): AsyncGenerator<ModelStreamItem> {
    call += 1;
    const id = `msg_${call}`;
    const block = call <= turns
      ? { type: 'tool_use' as const, id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } }
      : { type: 'text' as const, text: 'done' };
    const stopReason = block.type === 'text' ? 'end_turn' : 'tool_use';
    const message: AssistantMessage = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE } };
    yield { kind: 'event', event: shape(message) };
    yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
  };
}

async function run(shape: (message: AssistantMessage) => EventOf<'model_message'>): Promise<StepRecord[]> {
  const steps: StepRecord[] = [];
  const { terminal } = await runLoopToEnd({ prompt: 'Echo.', config, tools: [echo], deps: { callModel: caller(5, shape) }, onStep: (step) => void steps.push(step) });
  expect(terminal.reason).toBe('completed');
  return steps;
}

const plain = (message: AssistantMessage): EventOf<'model_message'> => ({ type: 'model_message', message });
const replies = (steps: StepRecord[]) => steps.flatMap((step) => (step.event?.type === 'model_message' && step.event.concurrencySafe ? [step.event] : []));

describe('hidden classes of what a run makes per turn and per run', () => {
  it('gives every reply event with tool calls one hidden class, and every run its params one, however warm', async () => {
    const events: object[] = [];
    const params: object[] = [];
    for (let i = 0; i < 40; i++) {
      const steps = await run(plain);
      events.push(...replies(steps));
      params.push(steps[steps.length - 1].state.context.params);
    }
    expect(events.length).toBe(200);
    expect.soft(events.filter((event) => !haveSameMap(event, events[0]))).toEqual([]);
    expect.soft(params.filter((p) => !haveSameMap(p, params[0]))).toEqual([]);
  });

  it('keeps the reply event members in the order the model caller gave them', async () => {
    const [event] = replies(await run(plain));
    expect(Object.keys(event)).toEqual(['type', 'message', 'concurrencySafe']);
    const reordered = replies(await run((message) => ({ message, type: 'model_message' as const })));
    expect(Object.keys(reordered[0])).toEqual(['message', 'type', 'concurrencySafe']);
    const flagged = replies(await run((message) => ({ type: 'model_message', concurrencySafe: {}, message })));
    expect(Object.keys(flagged[0])).toEqual(['type', 'concurrencySafe', 'message']);
    expect(flagged[0].concurrencySafe).toEqual({ call_1: true });
  });

  it('gives every executor the drivers dispatch on one hidden class (round 12)', () => {
    const executors = EFFECT_TYPES.map((type) => executorOf({ type } as never) as object);
    expect(executors.every((executor) => executor !== undefined)).toBe(true);
    expect(new Set(executors.map((executor) => (executor as { kind: string }).kind)).size).toBe(6);
    expect(executors.filter((executor) => !haveSameMap(executor, executors[0]))).toEqual([]);
  });

  it('keys the concurrency flags of a reply without a hidden class per tool-use id (round 12)', async () => {
    const flags: object[] = [];
    for (let i = 0; i < 3; i++) flags.push(...replies(await run(plain)).map((event) => event.concurrencySafe as object));
    expect(flags.length).toBe(15);
    expect(Object.keys(flags[4])).toEqual(['call_5']);
    expect(JSON.stringify(flags[0])).toBe('{"call_1":true}');
    expect(flags.filter((f) => !haveSameMap(f, flags[0]))).toEqual([]);
  });

  it('can tell two hidden classes apart (the check can fail)', () => {
    expect(haveSameMap({ a: 1 }, { a: 2 })).toBe(true);
    expect(haveSameMap({ a: 1 }, { b: 1 })).toBe(false);
  });
});
