/**
 * turnloop's N=10 cell as `npm run bench` meets it, alone: the bench's warm-up for turnloop (5 runs at H=10, one
 * 30-turn run at H=100), then ROUNDS runs at N=10 (then at H=10), each right after two full GCs. What is left of
 * the cell's JIT warm-up and GC per turn, for CPU profiles (`--cpu-prof`) and `--trace-opt` of the first few
 * hundred turns, and for paired A/B of two builds by path.
 *
 * `node --expose-gc --import tsx cold-short-probe.ts [root]` (in bench/; root defaults to `..`, the build at
 * `<root>/dist`); prints one JSON line: the pooled median µs per turn at N=10 and at H=10, and a sum of per-turn µs.
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
