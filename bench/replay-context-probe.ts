/**
 * Why the bench's replay measurement reads lower inside `npm run bench` than alone: runs `measureReplay` (the
 * bench's own replay cells, `replay-throughput.ts`) after a chosen part of what the bench runs before it in the same
 * process, and prints the four rates with the collector's time and counts during the measurement.
 *
 * `BEFORE` (comma-separated, in order): `none` (default: the measurement alone), `grid` (the bench's warm-up and one
 * round of every system at every size but the peers' N=1000, as `run.ts` runs them, a full GC before and after each
 * run), `turnloop-grid` (the same, turnloop's systems only), `peers-loaded` (the peers' modules imported, nothing
 * run), `recording-cost` (the "where recording's cost goes" rows, 20 rounds).
 *
 * Usage: `node --expose-gc --import tsx replay-context-probe.ts` (`BEFORE=...`).
 */
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { measureReplay } from './replay-throughput.ts';
import { measureRecordingCost } from './recording-cost.ts';
import { TurnProbe, type RunSpec, type System } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;

async function runOnce(system: System, spec: RunSpec): Promise<void> {
  await system.before?.(spec);
  collect();
  collect();
  let result: { retained: unknown } | null = await system.run(spec, new TurnProbe());
  collect();
  collect();
  if (result.retained === undefined) throw new Error('nothing retained');
  result = null;
}

async function grid(only: (label: string) => boolean): Promise<void> {
  const { SIZES, SYSTEMS } = await import('./matrix.ts');
  const systems = SYSTEMS.filter((s) => only(s.label));
  for (const system of systems) {
    for (let i = 0; i < 5; i++) await runOnce(system, { turns: 10, history: 10 });
    await runOnce(system, { turns: 30, history: 100 });
  }
  for (const size of SIZES) {
    for (const system of systems) {
      if (size.turns >= 1_000 && !system.label.startsWith('turnloop') && system.label !== 'floor') continue;
      await runOnce(system, size);
    }
  }
}

const started = performance.now();
for (const step of (process.env.BEFORE ?? 'none').split(',')) {
  if (step === 'grid') await grid(() => true);
  else if (step === 'turnloop-grid') await grid((label) => label.startsWith('turnloop') || label === 'floor');
  else if (step === 'peers-loaded') await import('./matrix.ts');
  else if (step === 'recording-cost') await measureRecordingCost(20);
  else if (step !== 'none') throw new Error(`unknown BEFORE step ${step}`);
}
const beforeSeconds = (performance.now() - started) / 1000;
const heapBefore = process.memoryUsage().heapUsed;

let gcMs = 0;
const gcKinds = new Map<number, number>();
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    const kind = (entry as unknown as { detail?: { kind: number } }).detail?.kind ?? -1;
    gcKinds.set(kind, (gcKinds.get(kind) ?? 0) + 1);
  }
});
observer.observe({ entryTypes: ['gc'] });
const report = await measureReplay();
// The collector's entries are delivered on a later turn of the event loop.
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
const r = (x: number) => Math.round(x).toLocaleString('en-US');
console.log(JSON.stringify({
  before: process.env.BEFORE ?? 'none',
  beforeSeconds: Math.round(beforeSeconds),
  heapBeforeMiB: Math.round(heapBefore / 2 ** 20),
  replay: r(report.replayRate.median),
  unverified: r(report.unverifiedRate.median),
  parse: r(report.parseRate.median),
  fold: r(report.foldRate.median),
  cpu: Object.fromEntries(Object.entries(report.cpuRates).map(([k, v]) => [k, r(v)])),
  gcMsDuringMeasure: Math.round(gcMs),
  gcCountsByKind: Object.fromEntries(gcKinds),
  load: loadavg().map((l) => l.toFixed(2)).join(' '),
}));
