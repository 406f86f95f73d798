/**
 * Every system of `npm run bench` with and without the two full GCs the bench makes before each run (its heap
 * measurement): is the forced GC a cost every system pays alike? (round 11, docs/benchmarks.md "Round 11: short
 * runs"). `node --expose-gc --import tsx gc-penalty-probe.ts <system label> <gc|nogc> <runs> [turns] [history]`
 * (in bench/): 10 unmeasured runs, then `<runs>` runs; prints the median per-turn µs pooled over them.
 */
import { SYSTEMS } from './matrix.ts';
import { median } from './stats.ts';
import { TurnProbe } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const [label, mode, runsText, turnsText, historyText] = process.argv.slice(2);
const system = SYSTEMS.find((s) => s.label === label);
if (!system || !['gc', 'nogc'].includes(mode ?? '')) throw new Error(`usage: gc-penalty-probe.ts <${SYSTEMS.map((s) => s.label).join('|')}> <gc|nogc> <runs>`);
const spec = { turns: Number(turnsText ?? 10), history: Number(historyText ?? 0) };
for (let i = 0; i < 10; i++) {
  await system.before?.(spec);
  await system.run(spec, new TurnProbe());
}
const all: number[] = [];
for (let i = 0; i < Number(runsText ?? 60); i++) {
  await system.before?.(spec);
  if (mode === 'gc') {
    gc();
    gc();
  }
  const probe = new TurnProbe();
  await system.run(spec, probe);
  all.push(...probe.turnMicros());
}
console.log(JSON.stringify({ label, mode, pooledMicros: Number(median(all).toFixed(2)) }));
process.exit(0);
