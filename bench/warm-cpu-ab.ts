/**
 * Warm CPU time per turn of two builds, in alternating processes: the `step()` fold of the bench's recorded events
 * (`foldEvents`, as the bench's fold cell) and `query()` runs (the bench's turnloop system), at one size (default
 * N=10, H=10). Each process warms up (300 folds, 200 runs), then times `FOLDS` folds and `RUNS` runs back to back on
 * `process.cpuUsage()` (no forced GC: this is the warm cost, not the bench's cell). The builds' processes alternate
 * pair by pair, the first alternating too; the probe prints each side's median and the median of the paired ratios
 * (before over after: above 1 is faster now) with their range and the load average at the start and the end.
 *
 * Usage (in bench/): `node --import tsx warm-cpu-ab.ts <before-root> [after-root]` (after: this checkout), both
 * built with `npm run build`; `PAIRS=n` (default 9), `TURNS`, `HISTORY`, `FOLDS` (20,000), `RUNS` (3,000).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.ts';

const TURNS = Number(process.env.TURNS ?? 10);
const HISTORY = Number(process.env.HISTORY ?? 10);

interface Sample {
  fold: number;
  query: number;
}

/** One side, in this process: µs of CPU per turn. */
async function measure(root: string): Promise<Sample> {
  const { recordSession, foldEvents, turnloopQuerySystem } = (await import(join(root, 'bench/systems/turnloop.ts'))) as typeof import('./systems/turnloop.ts');
  const { TurnProbe } = (await import(join(root, 'bench/workload.ts'))) as typeof import('./workload.ts');
  const spec = { turns: TURNS, history: HISTORY };
  const session = await recordSession(spec, new TurnProbe());
  const folds = Number(process.env.FOLDS ?? 20_000);
  const runs = Number(process.env.RUNS ?? 3_000);
  for (let i = 0; i < 300; i++) foldEvents(session, () => undefined);
  let start = process.cpuUsage();
  for (let i = 0; i < folds; i++) foldEvents(session, () => undefined);
  let used = process.cpuUsage(start);
  const fold = (used.user + used.system) / folds / TURNS;
  for (let i = 0; i < 200; i++) await turnloopQuerySystem.run(spec, new TurnProbe());
  start = process.cpuUsage();
  for (let i = 0; i < runs; i++) await turnloopQuerySystem.run(spec, new TurnProbe());
  used = process.cpuUsage(start);
  return { fold, query: (used.user + used.system) / runs / TURNS };
}

if (process.env.WARM_CPU_SIDE) {
  console.log(JSON.stringify(await measure(process.env.WARM_CPU_SIDE)));
} else {
  const before = process.argv[2];
  const after = process.argv[3] ?? join(import.meta.dirname, '..');
  if (!before) throw new Error('usage: warm-cpu-ab.ts <before-root> [after-root]');
  const pairs = Number(process.env.PAIRS ?? 9);
  const side = (root: string): Sample => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename], { cwd: import.meta.dirname, env: { ...process.env, WARM_CPU_SIDE: root } });
    return JSON.parse(out.toString().trim().split('\n').pop() as string) as Sample;
  };
  const loadStart = loadavg()[0];
  const b: Sample[] = [];
  const a: Sample[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      b.push(side(before));
      a.push(side(after));
    } else {
      a.push(side(after));
      b.push(side(before));
    }
  }
  console.log(`N=${TURNS} H=${HISTORY}, ${pairs} pairs, load average ${loadStart.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
  for (const key of ['fold', 'query'] as const) {
    const ratios = b.map((s, i) => s[key] / a[i][key]);
    const fmt = (x: number) => x.toFixed(2);
    console.log(`${key.padEnd(5)} before ${fmt(median(b.map((s) => s[key])))} µs/turn, after ${fmt(median(a.map((s) => s[key])))}; paired ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; faster in ${ratios.filter((r) => r > 1).length} of ${pairs})`);
  }
}
