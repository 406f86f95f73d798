/**
 * The session recorder of two builds, A/B in one process (`before`: `AB_BEFORE`, default `/tmp/chk-main`, built with
 * `npm run build`; `after`: this repository's `dist/`), at N=10, H=10:
 * - `alone`: the recorder fed the 7 steps of one turn of the bench workload (recorded once, then replayed into
 *   it with fresh indexes) 4,000 times to a file, without the loop: its own CPU time per turn (user + system:
 *   the system part is the one `writeSync` per turn), the side that goes first alternating, `ROUNDS` rounds;
 * - `in a run`: the workload back to back with no recorder, the before recorder and the after recorder (the loop
 *   is this repository's for all three, so only the recorder differs), order rotated per run, `RUNS` runs each:
 *   pooled per-turn medians and the median paired ratio of the run medians (before over after, above 1 is faster).
 * The load average is printed at the start and the end.
 *
 * Usage: `node --import tsx recorder-ab.ts` (`ROUNDS`, default 20; `RUNS`, default 1,000).
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopEvent } from '../src/data/events.ts';
import type { Effect } from '../src/data/effects.ts';
import type { LoopState } from '../src/data/state.ts';
import type { StepObserver } from '../src/runtime/query-options.ts';
import { foldSessionLog } from '../dist/replay/replay.js';
import { parseSessionLogText } from '../dist/replay/parse-session-log.js';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

type Recorder = StepObserver & { close(): void; error: Error | null };
type MakeRecorder = (path: string, options: { config: typeof BENCH_CONFIG }) => Recorder;
interface Step { index: number; event: LoopEvent | null; state: LoopState; effects: readonly Effect[] }

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const RUNS = Number(process.env.RUNS ?? 1_000);
const TURNS_ALONE = 4_000;
const BEFORE = process.env.AB_BEFORE ?? '/tmp/chk-main';
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function recorderOf(root: string): Promise<MakeRecorder> {
  const module = (await import(pathToFileURL(join(root, 'dist/replay/session-recorder.js')).href)) as { createSessionRecorder: MakeRecorder };
  return module.createSessionRecorder;
}

const dir = mkdtempSync(join(tmpdir(), 'turnloop-recorder-ab-'));
const sides: Array<[name: 'before' | 'after', make: MakeRecorder]> = [
  ['before', await recorderOf(BEFORE)],
  ['after', await recorderOf(join(import.meta.dirname, '..'))],
];

/** The steps of one recorded run of the workload, and the 7 of its third turn (after a model call, to the next). */
async function oneTurn(): Promise<{ header: Step; turn: Step[] }> {
  const path = join(dir, 'source.jsonl');
  const recorder = sides[1][1](path, { config: BENCH_CONFIG });
  await runTurnloop({ turns: 10, history: 10 }, new TurnProbe(), recorder);
  recorder.close();
  const steps = [...foldSessionLog(parseSessionLogText(readFileSync(path, 'utf8')))] as Step[];
  const calls = steps.flatMap((step, i) => (i > 0 && step.effects.some((effect) => effect.type === 'call_model') ? [i] : []));
  return { header: steps[0], turn: steps.slice(calls[2] + 1, calls[3] + 1) };
}

try {
  console.log(`recorder A/B: before ${BEFORE}, after this repository; load average at start ${load()}`);
  const { header, turn } = await oneTurn();
  const alone = { before: [] as number[], after: [] as number[], beforeSystem: [] as number[], afterSystem: [] as number[] };
  for (let round = -2; round < ROUNDS; round++) {
    for (const [name, make] of round % 2 === 0 ? sides : [...sides].reverse()) {
      const path = join(dir, `alone-${name}.jsonl`);
      const recorder = make(path, { config: BENCH_CONFIG });
      recorder(header as never);
      let index = 1;
      const start = process.cpuUsage();
      for (let k = 0; k < TURNS_ALONE; k++) for (const step of turn) recorder({ ...step, index: index++ } as never);
      const spent = process.cpuUsage(start);
      recorder.close();
      if (recorder.error) throw recorder.error;
      rmSync(path, { force: true });
      if (round < 0) continue;
      alone[name].push((spent.user + spent.system) / TURNS_ALONE);
      alone[`${name}System`].push(spent.system / TURNS_ALONE);
    }
  }
  console.log(`alone (${turn.length} steps per turn, CPU µs per turn, median of ${ROUNDS} rounds of ${TURNS_ALONE} turns):`);
  for (const name of ['before', 'after'] as const) console.log(`  ${name}: ${median(alone[name]).toFixed(2)} (system ${median(alone[`${name}System`]).toFixed(2)})`);

  const modes = ['none', 'before', 'after'] as const;
  const turns = { none: [] as number[], before: [] as number[], after: [] as number[] };
  const runMedians = { none: [] as number[], before: [] as number[], after: [] as number[] };
  for (let run = -100; run < RUNS; run++) {
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(k + Math.max(run, 0)) % modes.length];
      const path = join(dir, `run-${mode}.jsonl`);
      const recorder = mode === 'none' ? undefined : sides[mode === 'before' ? 0 : 1][1](path, { config: BENCH_CONFIG });
      const probe = new TurnProbe();
      await runTurnloop({ turns: 10, history: 10 }, probe, recorder);
      recorder?.close();
      if (recorder?.error) throw recorder.error;
      rmSync(path, { force: true });
      if (run < 0) continue;
      turns[mode].push(...probe.turnMicros());
      runMedians[mode].push(median(probe.turnMicros()));
    }
  }
  const none = median(turns.none);
  console.log(`in a run (N=10, H=10, back to back, ${RUNS} runs each, pooled per-turn medians):`);
  console.log(`  no recorder: ${none.toFixed(1)} µs`);
  for (const name of ['before', 'after'] as const) {
    const micros = median(turns[name]);
    console.log(`  ${name}: ${micros.toFixed(1)} µs (${(micros / none).toFixed(2)}×, +${(micros - none).toFixed(1)} µs)`);
  }
  console.log(`  paired run medians, before / after: ${median(runMedians.before.map((b, i) => b / runMedians.after[i])).toFixed(3)}`);
  console.log(`load average at end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
