/**
 * turnloop's two short cells as `npm run bench` meets them, alone (round 14): the bench's warm-up for turnloop (5 runs
 * at H=10, one 30-turn run at H=100), then ROUNDS (default 15, the bench's) runs at N=10, then as many at H=10, each
 * right after two full GCs. At N=10 most of the loop's code still runs unoptimized (`--trace-opt`: almost nothing of
 * `dist/` is optimized before the cell ends), so this measures what a cold turn costs; for paired A/B of two builds
 * (run it from each tree's bench/), CPU profiles and traces of those first few hundred turns.
 *
 * `node --expose-gc --import tsx cold-short-probe.ts [root]` (in bench/; root defaults to `..`, the build at
 * `<root>/dist`). Prints one JSON line: the pooled median µs per turn at N=10 and at H=10. Options (environment):
 * BY_TURN=1 prints the median of each turn index too; WINDOW=<file> writes each measured run's turns as a window
 * on the profiler's clock (first to last model call, µs), to keep only the turns' samples of a `--cpu-prof`
 * profile; MARK=1 prints a line where the measured runs start (for `--trace-opt` output).
 */
import { writeFileSync } from 'node:fs';
import { loadSide } from './core-ab-sides.ts';
import { median } from './stats.ts';
import { TurnProbe } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const root = process.argv[2] ?? '..';
const rounds = Number(process.env.ROUNDS ?? 15);
const windows: string[] = [];

// performance.now() in µs plus this is process.hrtime in µs.
const clockOffset = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
const side = await loadSide('after', root);

async function turnsOfOneRun(spec: { turns: number; history: number }): Promise<number[]> {
  collect();
  collect();
  const probe = new TurnProbe();
  await side.runQuery(spec, probe);
  // The turns' window on the profiler's clock (microseconds of the monotonic clock): first to last model call.
  const toClock = (ms: number) => Math.round(ms * 1000 + clockOffset);
  if (process.env.WINDOW) windows.push(`${toClock(probe.callTimes[0])} ${toClock(probe.callTimes[probe.callTimes.length - 1])}`);
  return probe.turnMicros();
}

for (let i = 0; i < 5; i++) await turnsOfOneRun({ turns: 10, history: 10 });
await turnsOfOneRun({ turns: 30, history: 100 });
const out: Record<string, number> = {};
if (process.env.MARK) console.log('=== measured');
for (const [id, spec] of [['N10', { turns: 10, history: 0 }], ['H10', { turns: 10, history: 10 }]] as const) {
  const pooled: number[] = [];
  const byTurn: number[][] = [];
  for (let r = 0; r < rounds; r++) {
    const turns = await turnsOfOneRun(spec);
    pooled.push(...turns);
    turns.forEach((micros, k) => (byTurn[k] ??= []).push(micros));
  }
  out[id] = Number(median(pooled).toFixed(2));
  if (process.env.BY_TURN) console.log(id, byTurn.map((xs) => Math.round(median(xs))).join(' '));
}
if (process.env.WINDOW) writeFileSync(process.env.WINDOW, windows.slice(6).join('\n'));
side.cleanUp();
console.log(JSON.stringify(out));
