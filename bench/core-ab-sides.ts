/**
 * One side of the core A/B (`core-ab.ts`): a build of turnloop (`<root>/dist`) loaded by path, and the workload run
 * through it the way that build's own `npm run bench` ran it:
 * - `query()`: `runLoopToEnd` (after the redesign) or `runQuery` (before it), the same scripted model and echo tool
 *   as `systems/turnloop.ts`, with `BENCH_CONFIG`'s overrides resolved by the side's own `resolveConfig`;
 * - the fold: a fresh `createStepper({ memo: true })` per fold where the build has one (`foldEvents`), over the
 *   chart's paths shared per machine where the build shares them (`src/runtime/chart-paths.ts`, as its replay does),
 *   else the build's `step()` (whose memo was module-level, shared by every fold of the process);
 * - replay: the side's `replay()` and `parseSessionLogText` on a session the side recorded itself.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { LoopConfig } from '../src/config/config.ts';
import type { LoopEvent } from '../src/data/events.ts';
import type { LoopParams, LoopState } from '../src/data/state.ts';
import { prefixText, REPLAY_EVENTS } from './replay-throughput.ts';
import { historyMessages, scriptedCaller } from './systems/turnloop.ts';
import { echo, PROMPT, TurnProbe, type RunSpec } from './workload.ts';

/** What the fold needs of a recorded session. */
export interface FoldInput {
  params: LoopParams;
  events: LoopEvent[];
}

type StepFn = (state: LoopState, event: LoopEvent, config: LoopConfig) => { state: LoopState; effects: Array<{ type: string }> };
type InitialFn = (params: LoopParams, config: LoopConfig) => { state: LoopState; effects: Array<{ type: string }> };
type AnyFn = (...args: never[]) => unknown;

export interface Side {
  name: 'before' | 'after';
  runQuery(spec: RunSpec, probe: TurnProbe): Promise<unknown>;
  runRecorded(spec: RunSpec, probe: TurnProbe): Promise<unknown>;
  /** The side's own recording of the workload at this size (recorded once, then kept). */
  session(spec: RunSpec): Promise<FoldInput>;
  /** Folds the events as the side's bench did; true when the fold reached a terminal. */
  fold(session: FoldInput, onModelCall: () => void): boolean;
  /** The replay section's input: the log text cut after 10,000 events (at a commit group's end), and those events. */
  replayInput(): Promise<{ text: string; events: number; folded: FoldInput }>;
  replay(text: string, verify: boolean): unknown;
  parse(text: string): unknown;
  cleanUp(): void;
}

async function load(root: string, path: string): Promise<Record<string, AnyFn>> {
  return (await import(pathToFileURL(join(root, 'dist', path)).href)) as Record<string, AnyFn>;
}

export async function loadSide(name: Side['name'], root: string): Promise<Side> {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error(`${root}/dist is missing: run \`npm run build\` there`);
  const { resolveConfig } = await load(root, 'config/config.js');
  // Either layout: round 9's ranked folders (tools, drivers, runtime) or the one before it (effects/...).
  const laidOut = existsSync(join(root, 'dist/drivers/run-loop.js'));
  const { defineTool } = await load(root, laidOut ? 'tools/index.js' : 'effects/tools/index.js');
  const { createSessionRecorder } = await load(root, 'replay/session-recorder.js');
  const { parseSessionLogText } = await load(root, 'replay/parse-session-log.js');
  const { replay } = await load(root, 'replay/replay.js');
  const runLoop = laidOut
    ? (await load(root, 'drivers/run-loop.js')).runLoopToEnd
    : existsSync(join(root, 'dist/effects/run-loop.js'))
      ? (await load(root, 'effects/run-loop.js')).runLoopToEnd
      : (await load(root, 'effects/query.js')).runQuery;
  const hasStepper = existsSync(join(root, 'dist/reducer/stepper.js'));
  const { createStepper } = hasStepper ? await load(root, 'reducer/stepper.js') : {};
  // A build that shares the chart's paths per machine folds as its replay does: over the shared paths.
  const chartPaths = ['runtime/chart-paths.js', 'effects/chart-paths.js'].find((path) => existsSync(join(root, 'dist', path)));
  const { sharedChartPaths } = chartPaths ? await load(root, chartPaths) : {};
  const { initialState, step } = await load(root, 'reducer/step.js');

  const config = resolveConfig({ sessionId: 'bench', limits: { maxModelCalls: 1_000_000 } } as never) as LoopConfig;
  const tool = defineTool({
    name: 'echo',
    description: 'Answers its text unchanged.',
    inputSchema: z.object({ text: z.string() }),
    isConcurrencySafe: () => true,
    call: (input: { text: string }) => ({ content: echo(input) }),
  } as never);
  const dir = mkdtempSync(join(tmpdir(), `turnloop-ab-${name}-`));
  let files = 0;

  async function run(spec: RunSpec, probe: TurnProbe, onStep?: unknown): Promise<unknown> {
    const { terminal, items } = (await runLoop({
      messages: historyMessages(spec.history),
      prompt: PROMPT,
      tools: [tool],
      config,
      deps: { callModel: scriptedCaller(probe, spec.turns) },
      ...(onStep ? { onStep } : {}),
    } as never)) as { terminal: { reason: string }; items: unknown[] };
    if (terminal.reason !== 'completed') throw new Error(`${name}: ended with ${terminal.reason}`);
    return items;
  }

  async function record(spec: RunSpec, probe: TurnProbe): Promise<unknown> {
    const path = join(dir, `run-${++files}.jsonl`);
    const recorder = createSessionRecorder(path as never, { config } as never) as { error?: Error; close(): void };
    try {
      const items = await run(spec, probe, recorder);
      if (recorder.error) throw recorder.error;
      return items;
    } finally {
      recorder.close();
      rmSync(path, { force: true });
    }
  }

  const sessions = new Map<string, FoldInput & { text: string }>();
  async function session(spec: RunSpec): Promise<FoldInput & { text: string }> {
    const key = `${spec.turns}/${spec.history}`;
    const known = sessions.get(key);
    if (known) return known;
    const path = join(dir, `session-${++files}.jsonl`);
    const recorder = createSessionRecorder(path as never, { config } as never) as { error?: Error; close(): void };
    try {
      await run(spec, new TurnProbe(), recorder);
      if (recorder.error) throw recorder.error;
    } finally {
      recorder.close();
    }
    const text = readFileSync(path, 'utf8');
    rmSync(path, { force: true });
    const log = parseSessionLogText(text as never) as { header: { params: LoopParams }; events: Array<{ event: LoopEvent }> };
    const recorded = { text, params: log.header.params, events: log.events.map((line) => line.event) };
    sessions.set(key, recorded);
    return recorded;
  }

  function fold(input: FoldInput, onModelCall: () => void): boolean {
    const stepper = hasStepper ? (createStepper({ memo: true, ...(sharedChartPaths ? { paths: sharedChartPaths() } : {}) } as never) as { initialState: InitialFn; step: StepFn }) : { initialState: initialState as InitialFn, step: step as StepFn };
    const started = stepper.initialState(input.params, config);
    let state = started.state;
    for (const effect of started.effects) if (effect.type === 'call_model') onModelCall();
    for (const event of input.events) {
      const result = stepper.step(state, event, config);
      state = result.state;
      for (const effect of result.effects) if (effect.type === 'call_model') onModelCall();
    }
    return state.status === 'done';
  }

  let replayInput: { text: string; events: number; folded: FoldInput } | null = null;
  return {
    name,
    runQuery: run,
    runRecorded: record,
    session,
    fold,
    async replayInput() {
      if (replayInput) return replayInput;
      const recorded = await session({ turns: 1_430, history: 0 });
      const { text, events } = prefixText(recorded.text, REPLAY_EVENTS);
      const steps = (replay({ text } as never) as { steps: number }).steps;
      if (steps !== events + 1) throw new Error(`${name}: the replayed prefix holds ${steps - 1} events, not ${events}`);
      replayInput = { text, events, folded: { params: recorded.params, events: recorded.events.slice(0, events) } };
      return replayInput;
    },
    replay: (text, verify) => replay({ text } as never, (verify ? {} : { verify: false }) as never),
    parse: (text) => parseSessionLogText(text as never),
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}
