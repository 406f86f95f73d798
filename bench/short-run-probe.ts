/**
 * What a full GC before a run costs a short run's turns (round 11, docs/benchmarks.md "Round 11: short runs").
 *
 * `node --expose-gc --import tsx short-run-probe.ts <root> <mode> <runs> [turns] [history]` (in bench/): the
 * build at `<root>/dist` runs `query()` 20 times to warm up, then `<runs>` times, each run:
 * - `gc`: right after two full GCs, as `npm run bench` runs every system (its heap measurement);
 * - `nogc`: right after the previous run;
 * - `gcwarm`: after two full GCs and one unmeasured run of the same size.
 * Prints one JSON line: the median per-turn µs pooled over the runs, the median of the runs' medians, and the
 * median per-turn µs of each turn index (turn 1 is the gap between the first and the second model call).
 * Add `--log-ic --logfile=... --no-logfile-per-isolate` to count inline-cache misses (two run counts, subtract).
 */
import { loadSide } from './core-ab-sides.ts';
import { median } from './stats.ts';
import { TurnProbe } from './workload.ts';

const [root, mode, runsText, turnsText, historyText] = process.argv.slice(2);
if (!root || !['gc', 'nogc', 'gcwarm'].includes(mode ?? '')) throw new Error('usage: short-run-probe.ts <root> <gc|nogc|gcwarm> <runs> [turns] [history]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const side = await loadSide('after', root);
const spec = { turns: Number(turnsText ?? 10), history: Number(historyText ?? 0) };
for (let i = 0; i < 20; i++) await side.runQuery(spec, new TurnProbe());
const medians: number[] = [];
const all: number[] = [];
const byTurn: number[][] = [];
for (let i = 0; i < Number(runsText ?? 150); i++) {
  if (mode !== 'nogc') {
    gc();
    gc();
  }
  if (mode === 'gcwarm') await side.runQuery(spec, new TurnProbe());
  const probe = new TurnProbe();
  await side.runQuery(spec, probe);
  const turns = probe.turnMicros();
  medians.push(median(turns));
  all.push(...turns);
  turns.forEach((micros, k) => (byTurn[k] ??= []).push(micros));
}
side.cleanUp();
console.log(JSON.stringify({ mode, pooled: median(all), medianOfMedians: median(medians), byTurn: byTurn.map((xs) => Math.round(median(xs))) }));
