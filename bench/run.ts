/**
 * `npm run bench`: runs every system on every size, interleaved, prints one table and writes docs/benchmarks.md.
 *
 * Method (also written into the doc):
 * - Warm-up: every system runs the smallest sizes a few times before anything is recorded.
 * - Rounds: for each size, every system runs once per round; the order of the systems rotates each round, so no
 *   system always runs right after an expensive one. A system whose single run at a size exceeds the time cap
 *   gets fewer rounds there (never fewer than one); the doc says how many each had.
 * - Per run: full GC, heap used, the run, full GC, heap used again while the run's result is still referenced;
 *   the difference is the run's retained heap growth. Per-turn times come from the probe inside the model.
 * - Per cell: median and p99 of all per-turn samples pooled over the rounds; spread = min-max of per-round medians.
 *
 * `BENCH_QUICK=1` runs one round per size (for checking the harness, not for numbers). Every full run saves its
 * figures in `bench/last-run.json`; `--doc-only` rewrites `docs/benchmarks.md` from them (after editing the prose in
 * `report.ts`) without measuring again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { assertDistFresh } from './dist-fresh.ts';
import { writeBenchmarksDoc, formatTable, type Cell, type DocInput, type PreviousRun } from './report.ts';
import { measureFirstRuns } from './first-run.ts';
import { measureImportTimes } from './import-time.ts';
import { measureRecordingCost } from './recording-cost.ts';
import { measureReplay } from './replay-throughput.ts';
import { measureRequestPath } from './request-path.ts';
import { median, minMax, quantile } from './stats.ts';
import { SIZES, SYSTEMS, type Size } from './matrix.ts';
import { cleanUpRecordings } from './systems/turnloop.ts';
import { checkRun, TurnProbe, type RunSpec, type System } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench does)');
const collect = gc;

const QUICK = process.env.BENCH_QUICK === '1';
/** A system whose run at a size took longer than this gets no more rounds at that size. */
const RUN_CAP_MS = 2_000;

interface Sample {
  turnMicros: number[];
  totalMs: number;
  heapBytes: number;
}

async function runOnce(system: System, spec: RunSpec): Promise<Sample> {
  await system.before?.(spec);
  collect();
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const probe = new TurnProbe();
  const started = performance.now();
  let result: { retained: unknown } | null = await system.run(spec, probe);
  const totalMs = performance.now() - started;
  collect();
  collect();
  const heapBytes = process.memoryUsage().heapUsed - heapBefore;
  checkRun(system.label, spec, probe);
  if (result.retained === undefined) throw new Error(`${system.label}: nothing retained`);
  result = null;
  return { turnMicros: probe.turnMicros(), totalMs, heapBytes };
}

async function warmUp(): Promise<void> {
  for (const system of SYSTEMS) {
    for (let i = 0; i < (QUICK ? 1 : 5); i++) await runOnce(system, { turns: 10, history: 10 });
    await runOnce(system, { turns: 30, history: 100 });
  }
}

async function measureSize(size: Size): Promise<Map<System, Sample[]>> {
  const samples = new Map<System, Sample[]>(SYSTEMS.map((s) => [s, []]));
  const capped = new Set<System>();
  const rounds = QUICK ? 1 : size.rounds;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < SYSTEMS.length; k++) {
      const system = SYSTEMS[(k + round) % SYSTEMS.length];
      if (capped.has(system)) continue;
      const sample = await runOnce(system, size);
      samples.get(system)?.push(sample);
      if (sample.totalMs > RUN_CAP_MS) capped.add(system);
    }
    process.stderr.write('.');
  }
  return samples;
}

function cellOf(system: System, size: Size, samples: Sample[]): Cell {
  const pooled = samples.flatMap((s) => s.turnMicros);
  const roundMedians = samples.map((s) => median(s.turnMicros));
  return {
    system: system.label,
    size: size.id,
    rounds: samples.length,
    medianMicros: median(pooled),
    p99Micros: quantile(pooled, 0.99),
    spreadMicros: minMax(roundMedians),
    heapBytes: median(samples.map((s) => s.heapBytes)),
    totalMs: median(samples.map((s) => s.totalMs)),
    firstRunMs: null,
  };
}

/** The measured figures of the last full run, so that the doc's prose can be regenerated without measuring again. */
const LAST_RUN = join(import.meta.dirname, 'last-run.json');

/** The figures of the run before this one (`LAST_RUN`), for the doc's "no cell slower" check; none in quick mode. */
function previousRun(): PreviousRun | undefined {
  if (!existsSync(LAST_RUN)) return undefined;
  const last = JSON.parse(readFileSync(LAST_RUN, 'utf8')) as Omit<DocInput, 'systems'>;
  if (last.quick) return undefined;
  return {
    date: last.date,
    loadAtStart: last.loadAtStart,
    loadAtEnd: last.loadAtEnd,
    cells: last.cells.map(({ system, size, medianMicros }) => ({ system, size, medianMicros })),
    replay: { foldRate: last.replay.foldRate.median, replayRate: last.replay.replayRate.median, parseRate: last.replay.parseRate.median, unverifiedRate: last.replay.unverifiedRate.median },
  };
}

async function main(): Promise<void> {
  if (process.argv.includes('--doc-only')) {
    const docPath = await writeBenchmarksDoc({ ...(JSON.parse(readFileSync(LAST_RUN, 'utf8')) as Omit<DocInput, 'systems'>), systems: SYSTEMS });
    console.log(`wrote ${docPath} from ${LAST_RUN}`);
    return;
  }
  assertDistFresh();
  const date = new Date().toISOString();
  const loadAtStart = loadavg();
  const started = performance.now();
  process.stderr.write(`warming up${QUICK ? ' (quick)' : ''}…\n`);
  await warmUp();
  const cells: Cell[] = [];
  for (const size of SIZES) {
    process.stderr.write(`${size.id} `);
    const samples = await measureSize(size);
    for (const system of SYSTEMS) cells.push(cellOf(system, size, samples.get(system) ?? []));
    process.stderr.write('\n');
  }
  process.stderr.write('first runs, one fresh process per cell');
  const firstRuns = measureFirstRuns(QUICK ? ['N=10'] : undefined, () => process.stderr.write('.'));
  process.stderr.write('\n');
  for (const first of firstRuns) {
    const cell = cells.find((c) => c.system === first.system && c.size === first.size);
    if (cell) Object.assign(cell, { firstRunMs: first.runMs, ...(first.error ? { firstRunError: first.error } : {}) });
  }
  process.stderr.write('where recording\'s cost goes…\n');
  const recordingCost = await measureRecordingCost(QUICK ? 1 : 100);
  process.stderr.write('replay throughput…\n');
  const replayReport = await measureReplay();
  process.stderr.write('request path (real adapter + SDK + loopback fake API)…\n');
  const requestPath = await measureRequestPath(QUICK ? 1 : 5);
  process.stderr.write('root import time…\n');
  const importTimes = measureImportTimes(QUICK ? 2 : 7);
  cleanUpRecordings();
  if (existsSync(join(process.cwd(), '.turnloop'))) throw new Error('a run wrote to .turnloop/: the config touched the disk');
  const elapsedSeconds = (performance.now() - started) / 1000;

  console.log(formatTable(cells, SYSTEMS.map((s) => s.label), SIZES.map((s) => s.id)));
  const previous = previousRun();
  const input: Omit<DocInput, 'systems'> = {
    cells, sizes: SIZES, replay: replayReport, recordingCost, requestPath, importTimes, elapsedSeconds, quick: QUICK, runCapMs: RUN_CAP_MS, date, loadAtStart, loadAtEnd: loadavg(),
    ...(previous ? { previous } : {}),
  };
  writeFileSync(LAST_RUN, `${JSON.stringify(input, null, 1)}\n`);
  const docPath = await writeBenchmarksDoc({ ...input, systems: SYSTEMS });
  console.log(`\nreplay: step() fold ${Math.round(replayReport.foldRate.median).toLocaleString('en-US')} events/s, replay() ${Math.round(replayReport.replayRate.median).toLocaleString('en-US')} events/s`);
  console.log(`log bytes per turn: ${replayReport.bytesPerTurn.map((w) => `turns ${w.from}-${w.to}: ${w.bytes.toFixed(0)}`).join(', ')}`);
  console.log(`\nwrote ${docPath} in ${elapsedSeconds.toFixed(0)} s`);
}

await main();
