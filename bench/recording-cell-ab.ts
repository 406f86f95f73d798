/**
 * The bench's `turnloop+rec` cell with the recorder of two builds, A/B in one process: per round, in rotated
 * order, a run without recording, a run recorded by the `before` build's `createSessionRecorder` (`AB_BEFORE`, a
 * directory holding a `dist/` built with `npm run build`) and one by this repository's; each run as `run.ts` makes
 * it (two full GCs first, a new recorder to a new file, closed after). The loop is this repository's for all three,
 * so only the recorder differs. Prints pooled per-turn medians, each side against no recording, and the median
 * of the per-round ratios of run medians (before over after: above 1 is faster), with the load average.
 *
 * Usage: `node --expose-gc --import tsx recording-cell-ab.ts` (`AB_BEFORE`, required; `ROUNDS`, default 300;
 * `N` and `H`, default 10 and 10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StepObserver } from '../src/runtime/query-options.ts';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

type Recorder = StepObserver & { close(): void; error: Error | null };
type MakeRecorder = (path: string, options: { config: typeof BENCH_CONFIG }) => Recorder;

const before = process.env.AB_BEFORE;
if (!before) throw new Error('recording-cell-ab: set AB_BEFORE to a directory with a built dist/ to compare against');
const ROUNDS = Number(process.env.ROUNDS ?? 300);
const spec = { turns: Number(process.env.N ?? 10), history: Number(process.env.H ?? 10) };
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function recorderOf(root: string): Promise<MakeRecorder> {
  return ((await import(pathToFileURL(join(root, 'dist/replay/session-recorder.js')).href)) as { createSessionRecorder: MakeRecorder }).createSessionRecorder;
}

const sides: Array<[name: 'none' | 'before' | 'after', make: MakeRecorder | null]> = [
  ['none', null],
  ['before', await recorderOf(before)],
  ['after', await recorderOf(join(import.meta.dirname, '..'))],
];
const dir = mkdtempSync(join(tmpdir(), 'turnloop-recording-cell-ab-'));
const pooled = { none: [] as number[], before: [] as number[], after: [] as number[] };
const runMedians = { none: [] as number[], before: [] as number[], after: [] as number[] };
try {
  console.log(`turnloop+rec at N=${spec.turns}, H=${spec.history}: before ${before}, after this repository; load average at start ${load()}`);
  for (let round = -20; round < ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) {
      const [name, make] = sides[(k + Math.max(round, 0)) % sides.length];
      const path = join(dir, `run-${name}.jsonl`);
      collect();
      collect();
      const recorder = make?.(path, { config: BENCH_CONFIG });
      const probe = new TurnProbe();
      try {
        await runTurnloop(spec, probe, recorder);
        if (recorder?.error) throw recorder.error;
      } finally {
        recorder?.close();
        rmSync(path, { force: true });
      }
      if (round < 0) continue;
      pooled[name].push(...probe.turnMicros());
      runMedians[name].push(median(probe.turnMicros()));
    }
  }
  const none = median(pooled.none);
  console.log(`  no recording: ${none.toFixed(1)} µs per turn`);
  for (const name of ['before', 'after'] as const) {
    const micros = median(pooled[name]);
    console.log(`  ${name}: ${micros.toFixed(1)} µs (${(micros / none).toFixed(2)}×, +${(micros - none).toFixed(1)} µs)`);
  }
  console.log(`  paired run medians, before / after: ${median(runMedians.before.map((b, i) => b / runMedians.after[i])).toFixed(3)}`);
  console.log(`load average at end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
