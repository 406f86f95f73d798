/**
 * A quick probe of the fold alone (the memoized step of every event, as `replay()` does it, without parsing or
 * hashing): records the bench workload (1,430 tool turns) in a child process, takes the events of its log cut as
 * the bench cuts it (the commit groups within the first 10,000 events), and folds them a few times through
 * `stepWithMemo` over the process's shared chart paths, printing the median rate on wall and CPU time. With
 * `WORK=replay`, `replay({ text })` of that log text instead.
 *
 * With `AB_BEFORE=<checkout>` (built with `npm run build`), that checkout's `dist/` runs beside this one's (or
 * `AB_AFTER=<checkout>`'s) in the same process on the same input: every round runs each side once, the side that
 * goes first alternating, and the probe prints the median of the per-round CPU-time ratios (before over after: above
 * 1 is faster now) with its distribution-free 95% interval. Both sides must give deep-equal results (final state
 * and effects, or the replay's result). The recording runs in a child process because running it here would leave
 * one side's functions with the live interpreter's shapes: an A/A run of `replay-probe.ts`, which records in-process,
 * reads 0.95-0.99.
 *
 * Usage: `node --import tsx fold-probe.ts` (`ROUNDS=n`; `REPEAT=n` runs per timed call; `WORK=fold|replay`;
 * `AB_BEFORE=path`; `AB_AFTER=path`); add `--cpu-prof` to profile.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import type { LoopEvent } from '../src/data/events.ts';
import type { LoopState } from '../src/data/state.ts';
import type { Effect } from '../src/data/effects.ts';
import { prefixText } from './replay-throughput.ts';
import { BENCH_CONFIG, recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';
import { median, medianInterval } from './stats.ts';

const EVENTS = 10_000;
/** `fold` (default): the memoized step of each event; `replay`: `replay({ text })` of the same events' log text. */
const WORK = process.env.WORK ?? 'fold';

interface Folded {
  state: LoopState;
  effects: number;
  lastEffects: Effect[];
}

async function sideAt(root: string, params: unknown, events: LoopEvent[], text: string): Promise<() => unknown> {
  if (WORK === 'replay') {
    const { replay } = (await import(join(root, 'dist/replay/replay.js'))) as typeof import('../dist/replay/replay.js');
    return () => replay({ text });
  }
  const stepper = (await import(join(root, 'dist/reducer/stepper.js'))) as typeof import('../dist/reducer/stepper.js');
  const { sharedChartPaths } = (await import(join(root, 'dist/runtime/chart-paths.js'))) as typeof import('../dist/runtime/chart-paths.js');
  return () => {
    const memo = stepper.createStepMemo(sharedChartPaths());
    const started = stepper.initialStateWithMemo(memo, params as never, BENCH_CONFIG);
    let state = started.state;
    let effects = started.effects.length;
    let lastEffects = started.effects;
    for (const event of events) {
      const result = stepper.stepWithMemo(memo, state, event, BENCH_CONFIG);
      state = result.state;
      effects += result.effects.length;
      lastEffects = result.effects;
    }
    return { state, effects, lastEffects };
  };
}

/** Runs per timed call (`REPEAT`, default 4): one fold of 10,000 events is too short for CPU time to resolve. */
const REPEAT = Number(process.env.REPEAT ?? 4);

function timed(work: () => unknown): { wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < REPEAT; i++) work();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpuBefore);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const rate = (events: number, ms: number) => Math.round((events / ms) * 1000).toLocaleString('en-US');

// Recorded in a child process: recording runs this checkout's reducer on the live interpreter's objects, and the
// shapes it would leave in this process's inline caches would favour neither side evenly.
const recordedPath = join(tmpdir(), `turnloop-fold-probe-${process.pid}.json`);
if (process.env.FOLD_PROBE_RECORD) {
  const recorded = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
  const log = prefixText(recorded.text, EVENTS);
  writeFileSync(process.env.FOLD_PROBE_RECORD, JSON.stringify({ params: recorded.params, events: recorded.events.slice(0, log.events), text: log.text }));
  process.exit(0);
}
const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
  env: { ...process.env, FOLD_PROBE_RECORD: recordedPath },
  encoding: 'utf8',
});
if (child.status !== 0) throw new Error(`fold-probe: recording failed: ${child.stderr}`);
const session = JSON.parse(readFileSync(recordedPath, 'utf8')) as { params: unknown; events: LoopEvent[]; text: string };
rmSync(recordedPath);
const events = session.events;
const sides: Array<{ name: string; fold: () => unknown }> = [{ name: 'after', fold: await sideAt(process.env.AB_AFTER ?? join(import.meta.dirname, '..'), session.params, events, session.text) }];
if (process.env.AB_BEFORE) {
  sides.unshift({ name: 'before', fold: await sideAt(process.env.AB_BEFORE, session.params, events, session.text) });
  const [before, after] = [sides[0].fold(), sides[1].fold()];
  if (!isDeepStrictEqual(before, after)) throw new Error(`fold-probe: the two sides' ${WORK} results differ`);
}
const times = new Map<string, Array<{ wall: number; cpu: number }>>();
for (let round = 0; round < Number(process.env.ROUNDS ?? 15) + 2; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order) {
    const time = timed(side.fold);
    if (round >= 2) times.set(side.name, [...(times.get(side.name) ?? []), time]);
  }
}
for (const side of sides) {
  const list = times.get(side.name) ?? [];
  const wall = median(list.map((t) => t.wall));
  const cpu = median(list.map((t) => t.cpu));
  console.log(`${side.name.padEnd(6)} ${WORK} wall ${wall.toFixed(1)} ms, ${rate(events.length * REPEAT, wall)} events/s; CPU ${cpu.toFixed(1)} ms, ${rate(events.length * REPEAT, cpu)} events per CPU second`);
}
if (sides.length === 2) {
  const before = times.get('before') ?? [];
  const after = times.get('after') ?? [];
  const ratios = before.map((t, i) => t.cpu / after[i].cpu);
  const interval = medianInterval(ratios);
  const bounds = interval ? ` [95% ${interval[0].toFixed(2)}–${interval[1].toFixed(2)}]` : '';
  console.log(`paired ${WORK} CPU speed-up (before/after per round): median ${median(ratios).toFixed(2)}${bounds}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} over ${ratios.length} rounds`);
}
