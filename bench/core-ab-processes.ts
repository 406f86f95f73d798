/**
 * `core-ab.ts` in several processes, one paired median per process and cell (round 16, docs/benchmarks.md "Round 16:
 * core"). Why: in one process, `core-ab.ts`'s 95% interval treats the rounds as independent, but the two builds'
 * relative speed also depends on the process (which side's code V8 optimizes first, where things land in memory):
 * A/A runs (two copies of one build) gave paired medians of 0.92-1.05 with intervals that excluded 1 (2026-12-06,
 * 41 rounds, short cells), so a difference of a few percent needs several processes. Each process here is one
 * sample; the summary is the median of the per-process paired medians and their range. Run it once with two
 * copies of the base as well (an A/A), to see the spread for that load.
 *
 * `node --import tsx core-ab-processes.ts <processes> <after-root> [before-root]` (in bench/): `ROUNDS` (default 21)
 * and `CELLS` (default the two short `query` cells) pass through to `core-ab.ts`; the before root defaults to
 * `AB_BEFORE`.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { median } from './stats.ts';

const [processesText, after, beforeArg] = process.argv.slice(2);
const before = beforeArg ?? process.env.AB_BEFORE;
if (!processesText || !after || !before) throw new Error('usage: core-ab-processes.ts <processes> <after-root> [before-root]');
const env = {
  ...process.env,
  AB_BEFORE: before,
  AB_AFTER: after,
  ROUNDS: process.env.ROUNDS ?? '21',
  CELLS: process.env.CELLS ?? 'query N=10$,query H=10$',
};
const byCell = new Map<string, number[]>();
const loadStart = loadavg()[0];
for (let i = 0; i < Number(processesText); i++) {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'core-ab.ts'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  // A row: cell name, then before, after, pooled speed, run-median speed, min–max, paired median, [interval], verdict.
  for (const line of out.split('\n')) {
    const match = /^(\S.*?)\s{2,}\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+([\d.]+) \[/.exec(line);
    if (match) (byCell.get(match[1]) ?? byCell.set(match[1], []).get(match[1])!).push(Number(match[2]));
  }
  // Every process must give one value per cell (a cell only some processes print counts as missing in the others):
  // a row the pattern missed would otherwise drop out silently.
  for (const [cell, values] of byCell) {
    if (values.length !== i + 1) throw new Error(`process ${i + 1} gave no paired median for ${cell}:\n${out}`);
  }
  if (byCell.size === 0) throw new Error(`process ${i + 1} printed no cell:\n${out}`);
}
console.log(`${before} → ${after}: ${processesText} processes of ${env.ROUNDS} rounds; load ${loadStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
for (const [cell, medians] of byCell) {
  console.log(`${cell.padEnd(40)} median of process medians ${median(medians).toFixed(3)}  range ${Math.min(...medians).toFixed(2)}–${Math.max(...medians).toFixed(2)}  (${medians.map((m) => m.toFixed(2)).join(' ')})`);
}
