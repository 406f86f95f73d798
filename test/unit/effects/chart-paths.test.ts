/**
 * The chart's paths are recorded once per machine and shared by every run and replay in the process
 * (src/runtime/chart-paths.ts): a run after the first asks xstate nothing, and gets the same steps.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { sharedChartPaths } from '../../../src/runtime/chart-paths.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { StepRecord } from '../../../src/runtime/query-options.ts';
import { loopMachine } from '../../../src/machine/loop-machine.ts';
import { initialState, step } from '../../../src/reducer/step.ts';
import { createStepMemo, createStepper, stepWithMemo } from '../../../src/reducer/stepper.ts';
import { replay } from '../../../src/replay/replay.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { layerResult, params, testConfig } from '../../helpers/index.ts';
import { toolTurns } from '../replay/fixtures.ts';

const config = resolveConfig({ sessionId: 'chart-paths' });

async function run(onStep?: (record: StepRecord) => void) {
  const script = toolTurns(3);
  const records: StepRecord[] = [];
  let ids = 0;
  await runLoopToEnd({
    prompt: 'Read the files.',
    config,
    tools: scriptedToolRuntime(script.tools),
    deps: { callModel: scriptedModelCaller(script.model), newId: () => `id-${++ids}`, clock: { now: () => 1_700_000_000_000, sleep: async () => undefined } },
    onStep: (record) => {
      records.push(record);
      onStep?.(record);
    },
  });
  return records;
}

describe('chart paths shared per machine', () => {
  it('gives one set of paths per machine object', () => {
    expect(sharedChartPaths()).toBe(sharedChartPaths(loopMachine));
    expect(sharedChartPaths({})).not.toBe(sharedChartPaths());
  });

  it('lets a second memo follow what a first one recorded: it hits where the first missed', () => {
    const cfg = testConfig({ sessionId: 'chart-paths' });
    const start = initialState(params('hi'), cfg);
    const paths = sharedChartPaths({});
    const first = createStepMemo(paths);
    const second = createStepMemo(paths);
    const a = stepWithMemo(first, start.state, layerResult('tool_result_budget'), cfg);
    expect(first.memo.stats()).toMatchObject({ hits: 0, misses: 1 });
    const b = stepWithMemo(second, start.state, layerResult('tool_result_budget'), cfg);
    expect(second.memo.stats()).toMatchObject({ hits: 1, misses: 0, nodes: paths.nodes });
    expect(b).toEqual(a);
    expect(b).toEqual(step(start.state, layerResult('tool_result_budget'), cfg));
  });

  it('makes a run after the first ask xstate nothing (no path is added), with the same steps as xstate alone', async () => {
    await run();
    const nodes = sharedChartPaths().nodes;
    expect(nodes).toBeGreaterThan(0);
    const records = await run();
    expect(sharedChartPaths().nodes).toBe(nodes);
    // The same steps as plain step() (xstate on every event), from the same initial state.
    let state = records[0].state;
    for (const record of records.slice(1)) {
      const expected = step(state, record.event!, config);
      expect(record.state).toEqual(expected.state);
      expect(record.effects).toEqual(expected.effects);
      state = record.state;
    }
  });

  it('makes a replay after a run ask xstate nothing, with the same result as a memo of its own', async () => {
    const lines: string[] = [];
    const recorder = createSessionRecorder({ write: (text) => void lines.push(text) }, { config });
    const records = await run(recorder);
    recorder.close();
    const nodes = sharedChartPaths().nodes;
    const replayed = replay({ text: lines.join('') });
    expect(sharedChartPaths().nodes).toBe(nodes);
    expect(replayed.terminal).toEqual({ reason: 'completed' });
    expect(replayed.steps).toBe(records.length);
    // A memo of its own (fresh paths) folds the log's events to the same state.
    const fresh = createStepper({ memo: true });
    let state = fresh.initialState(replayed.header.params, replayed.header.config).state;
    for (const record of records.slice(1)) state = fresh.step(state, record.event!, replayed.header.config).state;
    expect(fresh.stats().misses).toBeGreaterThan(0);
    expect(replayed.finalState).toEqual(state);
  });
});
