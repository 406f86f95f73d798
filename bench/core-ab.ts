/**
 * `npm run bench:core-ab` (in bench/): an interleaved A/B of every `npm run bench` cell that runs turnloop's core,
 * between two builds in one process: `before` (a checkout given by `AB_BEFORE`, default `/tmp/chk-main`, built with
 * `npm run build`) and `after` (this repository's `dist/`). Each side runs the workload the way its own bench did
 * (`core-ab-sides.ts`), so a cell compares what `npm run bench` measured then and measures now.
 *
 * Cells: per-turn medians of `query()` (recording off and on) and of the `step()` fold at the bench's sizes, and
 * the replay section's four rates (fold, `replay()`, parse alone, `replay()` without verification) on the first
 * 10,000 events of a 1,430-turn session.
 *
 * Method: every round runs each cell once on each side, the side that goes first alternating round by round;
 * a full GC before every measured run. Per cell:
 * - pooled speed: the statistic `npm run bench` reports per cell (the median of every per-turn time pooled over the
 *   rounds, `run.ts`), before's over after's (below 1 is slower, below 0.91 is more than 10% slower);
 * - the speed of the run medians (the median over rounds of each run's median; rounds 5 and 6 reported this one);
 * - the per-round paired ratios (before's run over after's run of the same round): their range, their median, and
 *   a distribution-free 95% interval for that median (`medianInterval`). The verdict against the 10% limit reads the
 *   interval: `within` when it lies at or above 0.91, `slower` when below, else `undecided` (more rounds decide).
 *
 * Why the paired interval decides: an A/A run (the same build on both sides, `AB_BEFORE` and `AB_AFTER` naming two
 * copies of one `dist/`) put single cells' pooled speeds at 0.92-1.13 and their run-median speeds at 0.92-1.19 at
 * 31 rounds (2026-12-03, docs/benchmarks.md "Round 7"), so those figures alone cannot tell a 10% loss from noise;
 * the paired ratios share each round's machine conditions (paired medians 0.95-1.05 in the same A/A runs), and the
 * interval says how far their median can be trusted.
 *
 * The load average is printed at the start and the end.
 *
 * Usage: `node --expose-gc --import tsx core-ab.ts` (`ROUNDS=n`, default 9; `AB_BEFORE` and `AB_AFTER` name the two
 * roots; `CELLS=fold,replay` to filter by substring, `CELLS='query N=10$'` for one cell by its whole name;
 * `AB_JSON=path` writes the figures, each cell's per-round paired ratios included, as JSON).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadSide, type Side } from './core-ab-sides.ts';
import { median, medianInterval } from './stats.ts';
import { TurnProbe, type RunSpec } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;

const ROUNDS = Number(process.env.ROUNDS ?? 9);
/** More than 10% slower is below this after/before speed. */
const LIMIT = 0.91;
/** `AB_NO_GC=1`: no full GC before each run (to see how much of a difference the collections make). */
const NO_GC = process.env.AB_NO_GC === '1';
const BEFORE = process.env.AB_BEFORE ?? '/tmp/chk-main';
const AFTER = process.env.AB_AFTER ?? join(import.meta.dirname, '..');

/** What one measured run gives: its time in µs (lower is better) and the samples it was taken from. */
interface RunTime {
  /** The run's per-turn median (µs/turn), or its µs/event for a replay rate. */
  micros: number;
  /** Every per-turn time of the run (the replay rates: the one figure). */
  samples: number[];
}

/** One cell: a measured run per side. */
interface Cell {
  name: string;
  run(side: Side): Promise<RunTime>;
}

const SIZES: Array<RunSpec & { id: string }> = [
  { id: 'N=10', turns: 10, history: 0 },
  { id: 'N=100', turns: 100, history: 0 },
  { id: 'N=1000', turns: 1_000, history: 0 },
  { id: 'H=10', turns: 10, history: 10 },
  { id: 'H=1000', turns: 10, history: 1_000 },
  { id: 'H=10000', turns: 10, history: 10_000 },
];

function perTurn(probe: TurnProbe): RunTime {
  const samples = probe.turnMicros();
  return { micros: median(samples), samples };
}

function cells(): Cell[] {
  const list: Cell[] = [];
  for (const size of SIZES) {
    list.push({
      name: `query ${size.id}`,
      async run(side) {
        const probe = new TurnProbe();
        await side.runQuery(size, probe);
        return perTurn(probe);
      },
    });
    list.push({
      name: `query+rec ${size.id}`,
      async run(side) {
        const probe = new TurnProbe();
        await side.runRecorded(size, probe);
        return perTurn(probe);
      },
    });
    list.push({
      name: `fold ${size.id}`,
      async run(side) {
        const session = await side.session(size);
        const probe = new TurnProbe();
        const done = side.fold(session, () => void probe.next(size.turns));
        if (!done) throw new Error(`${side.name}: the fold did not reach a terminal`);
        return perTurn(probe);
      },
    });
  }
  const timed = (name: string, what: (side: Side) => Promise<() => unknown>): Cell => ({
    name,
    async run(side) {
      const { events, call } = await replayWork(side, what);
      const started = performance.now();
      call();
      const micros = ((performance.now() - started) * 1000) / events;
      return { micros, samples: [micros] };
    },
  });
  list.push(timed('replay: step() fold, µs/event', async (side) => {
    const { folded } = await side.replayInput();
    return () => side.fold(folded, () => undefined);
  }));
  list.push(timed('replay: replay(), µs/event', async (side) => {
    const { text } = await side.replayInput();
    return () => side.replay(text, true);
  }));
  list.push(timed('replay: parse alone, µs/event', async (side) => {
    const { text } = await side.replayInput();
    return () => side.parse(text);
  }));
  list.push(timed('replay: replay() verify:false, µs/event', async (side) => {
    const { text } = await side.replayInput();
    return () => side.replay(text, false);
  }));
  return list;
}

async function replayWork(side: Side, what: (side: Side) => Promise<() => unknown>): Promise<{ events: number; call: () => unknown }> {
  const { events } = await side.replayInput();
  return { events, call: await what(side) };
}

async function measured(cell: Cell, side: Side): Promise<RunTime> {
  if (!NO_GC) {
    collect();
    collect();
  }
  return cell.run(side);
}

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * A cell's figures. `speed` is the statistic `npm run bench` reports per cell: the median of every per-turn time
 * pooled over the rounds (run.ts), before's over after's. Also: the ratio of the medians of the runs' medians, and
 * the per-round paired ratios (before's run over after's run of the same round).
 */
function rowOf(cell: string, t: Record<Side['name'], RunTime[]>) {
  const pooled = (runs: RunTime[]) => median(runs.flatMap((r) => r.samples));
  const ofRuns = (runs: RunTime[]) => median(runs.map((r) => r.micros));
  const rounds = t.before.map((b, i) => b.micros / t.after[i].micros);
  const interval = medianInterval(rounds);
  const [before, after] = [pooled(t.before), pooled(t.after)];
  return {
    cell,
    rounds,
    interval,
    verdict: !interval ? 'too few rounds' : interval[0] >= LIMIT ? 'within' : interval[1] < LIMIT ? 'slower' : 'undecided',
    before,
    after,
    speed: before / after,
    runMedianSpeed: ofRuns(t.before) / ofRuns(t.after),
    pairedMin: Math.min(...rounds),
    pairedMedian: median(rounds),
    pairedMax: Math.max(...rounds),
  };
}

async function main(): Promise<void> {
  const before = await loadSide('before', BEFORE);
  const after = await loadSide('after', AFTER);
  const filter = process.env.CELLS?.split(',');
  const selected = cells().filter((c) => !filter || filter.some((f) => (f.endsWith('$') ? c.name === f.slice(0, -1) : c.name.includes(f))));
  const loadStart = loadavg();
  console.log(`core A/B: before ${BEFORE}, after ${AFTER}; ${ROUNDS} rounds; load average at start ${loadStart.map((l) => l.toFixed(1)).join(' / ')}`);
  // Warm-up: every cell twice on each side (JIT, the sides' recorded sessions).
  for (const cell of selected) for (let i = 0; i < 2; i++) for (const side of [before, after]) await measured(cell, side);
  const times = new Map<Cell, Record<Side['name'], RunTime[]>>(selected.map((c) => [c, { before: [], after: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const cell of selected) {
      const order = round % 2 === 0 ? [before, after] : [after, before];
      for (const side of order) times.get(cell)?.[side.name].push(await measured(cell, side));
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const loadEnd = loadavg();
  const rows = selected.map((cell) => rowOf(cell.name, times.get(cell) as Record<Side['name'], RunTime[]>));
  const header = ['cell', 'before µs', 'after µs', 'pooled speed', 'speed of run medians', 'paired min–max', 'paired median [95%]', 'verdict'];
  const lines = rows.map((r) => [
    r.cell, fmt(r.before), fmt(r.after), r.speed.toFixed(2), r.runMedianSpeed.toFixed(2), `${r.pairedMin.toFixed(2)}–${r.pairedMax.toFixed(2)}`,
    `${r.pairedMedian.toFixed(2)} [${r.interval ? r.interval.map((v) => v.toFixed(2)).join('–') : '?'}]`, r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  for (const l of [header, ...lines]) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  console.log(`load average at end ${loadEnd.map((l) => l.toFixed(1)).join(' / ')}`);
  const worst = rows.reduce((a, b) => (b.speed < a.speed ? b : a));
  console.log(`slowest cell (pooled): ${worst.cell} at ${worst.speed.toFixed(2)} (limit ${LIMIT})`);
  const lowest = rows.reduce((a, b) => ((b.interval?.[0] ?? 0) < (a.interval?.[0] ?? 0) ? b : a));
  console.log(`lowest interval: ${lowest.cell} at ${lowest.interval?.map((v) => v.toFixed(2)).join('–') ?? '?'}; ${rows.filter((r) => r.verdict === 'within').length} of ${rows.length} cells within the limit`);
  if (process.env.AB_JSON) writeFileSync(process.env.AB_JSON, `${JSON.stringify({ rounds: ROUNDS, before: BEFORE, after: AFTER, loadStart, loadEnd, rows }, null, 1)}\n`);
  before.cleanUp();
  after.cleanUp();
}

await main();
