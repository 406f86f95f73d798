/**
 * An action that changes nothing returns the one frozen `UNCHANGED` patch (src/machine/machine-context.ts), and the
 * memoized step writes nothing for it (`follow`, src/reducer/macrostep-memo.ts): about five of a tool turn's
 * eighteen patches were empty `{}` copied by `Object.assign` (docs/benchmarks.md "Round 15: less work per turn").
 * The results are `step()`'s (every driven test and the memo property test compare them).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNCHANGED, type ActionFn, type MachineContext } from '../../src/machine/machine-context.ts';
import type { TraceStep } from '../../src/machine/macrostep-trace.ts';
import { createMacrostepMemo } from '../../src/reducer/macrostep-memo.ts';
import { createStepper } from '../../src/reducer/stepper.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { AssistantMessage } from '../../src/messages/types.ts';
import { resolveConfig } from '../../src/config/config.ts';
import type { ModelCaller, ModelStreamItem } from '../../src/data/deps.ts';
import type { LoopState } from '../../src/data/state.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import type { StepRecord } from '../../src/runtime/query-options.ts';
import { echoTool as echo } from '../helpers/echo-tool.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const USAGE = { input_tokens: 10, output_tokens: 2 };
const config = resolveConfig({ sessionId: 'unchanged', limits: { maxModelCalls: 100 } });

/** Two tool turns and a text reply. */
const callModel: ModelCaller = async function* (request): AsyncGenerator<ModelStreamItem> {
  const count = request.messages.length;
  const id = `msg_${count}`;
  const block = count < 5 ? { type: 'tool_use' as const, id: `t${count}`, name: 'echo', input: { text: 'x' } } : { type: 'text' as const, text: 'done' };
  const stopReason = block.type === 'text' ? 'end_turn' : 'tool_use';
  const message: AssistantMessage = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE } };
  yield { kind: 'event', event: { type: 'model_message', message } };
  yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
};

/** A real run's events (the drivers' own path), and the state they start from. */
async function recorded(): Promise<{ events: LoopEvent[]; start: LoopState }> {
  const records: StepRecord[] = [];
  const { terminal } = await runLoopToEnd({ prompt: 'Echo.', config, tools: [echo], deps: { callModel }, onStep: (step) => void records.push(step) });
  expect(terminal.reason).toBe('completed');
  return { events: records.flatMap((r) => (r.event ? [r.event] : [])), start: records[0].state };
}

describe('the patch of an action that changes nothing', () => {
  it('is frozen and empty', () => {
    expect(Object.isFrozen(UNCHANGED)).toBe(true);
    expect(Object.keys(UNCHANGED)).toEqual([]);
  });

  it('is not written by the memo; any other patch is, the empty literal too', () => {
    const memo = createMacrostepMemo();
    const same: ActionFn = () => UNCHANGED;
    const literal: ActionFn = () => ({});
    const bump: ActionFn = (context) => ({ turnCount: context.turnCount + 1 });
    const event = { type: 'tools_finished' } as LoopEvent;
    const trace: TraceStep[] = [same, literal, bump, same].map((fn) => ({ kind: 'action', fn, params: undefined }));
    memo.add('a', event, trace, { value: 'b', done: false, unchanged: false });
    const assign = vi.spyOn(Object, 'assign');
    const followed = memo.follow('a', { turnCount: 1, effects: undefined } as unknown as MachineContext, event);
    expect(followed?.context.turnCount).toBe(2);
    expect(assign.mock.calls.map(([, patch]) => patch)).toEqual([{}, { turnCount: 2 }]);
  });

  it('leaves no empty patch for the memo to write in a run of the machine', async () => {
    const { events, start } = await recorded();
    expect(events.filter((event) => event.type === 'tool_result').length).toBe(2);
    const stepper = createStepper({ memo: true });
    const fold = () => {
      let state = start;
      for (const event of events) state = stepper.step(state, event, config).state;
      return state;
    };
    expect(fold().status).toBe('done');
    const assign = vi.spyOn(Object, 'assign');
    const state = fold();
    vi.restoreAllMocks();
    expect(state.status).toBe('done');
    const patches = assign.mock.calls.map(([, patch]) => patch as object);
    expect(patches.length).toBeGreaterThan(20);
    expect(patches.filter((patch) => Object.keys(patch).length === 0)).toEqual([]);
  });
});
