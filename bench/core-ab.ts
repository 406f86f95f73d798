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
 * a full GC before every measured run. Per cell: the median over rounds of each side's time, and after/before
 * speed (before's time / after's time: below 1 is slower, below 0.91 is more than 10% slower) as the ratio of the
 * medians and the range of the per-round paired ratios. The load average is printed at the start and the end.
 *
 * Usage: `node --expose-gc --import tsx core-ab.ts` (`ROUNDS=n`, default 9; `CELLS=fold,replay` to filter by
 * substring, `CELLS='query N=10$'` for one cell by its whole name; `AB_JSON=path` writes the figures as JSON).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadSide, type Side } from './core-ab-sides.ts';
import { median } from './stats.ts';
import { TurnProbe, type RunSpec } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;

const ROUNDS = Number(process.env.ROUNDS ?? 9);
/** `AB_NO_GC=1`: no full GC before each run (to see how much of a difference the collections make). */
const NO_GC = process.env.AB_NO_GC === '1';
const BEFORE = process.env.AB_BEFORE ?? '/tmp/chk-main';
const AFTER = process.env.AB_AFTER ?? join(import.meta.dirname, '..');

/** One cell: a measured run returning its time in µs (per turn, or per event for the replay rates). */
interface Cell {
  name: string;
  /** What one run measures, per side; µs (lower is better). */
  run(side: Side): Promise<number>;
}

const SIZES: Array<RunSpec & { id: string }> = [
  { id: 'N=10', turns: 10, history: 0 },
  { id: 'N=100', turns: 100, history: 0 },
  { id: 'N=1000', turns: 1_000, history: 0 },
  { id: 'H=10', turns: 10, history: 10 },
  { id: 'H=1000', turns: 10, history: 1_000 },
  { id: 'H=10000', turns: 10, history: 10_000 },
];

function perTurnMedian(probe: TurnProbe): number {
  return median(probe.turnMicros());
}

function cells(): Cell[] {
  const list: Cell[] = [];
  for (const size of SIZES) {
    list.push({
      name: `query ${size.id}`,
      async run(side) {
        const probe = new TurnProbe();
        await side.runQuery(size, probe);
        return perTurnMedian(probe);
      },
    });
    list.push({
      name: `query+rec ${size.id}`,
      async run(side) {
        const probe = new TurnProbe();
        await side.runRecorded(size, probe);
        return perTurnMedian(probe);
      },
    });
    list.push({
      name: `fold ${size.id}`,
      async run(side) {
        const session = await side.session(size);
        const probe = new TurnProbe();
        const done = side.fold(session, () => void probe.next(size.turns));
        if (!done) throw new Error(`${side.name}: the fold did not reach a terminal`);
        return perTurnMedian(probe);
      },
    });
  }
  const timed = (name: string, what: (side: Side) => Promise<() => unknown>): Cell => ({
    name,
    async run(side) {
      const { events, call } = await replayWork(side, what);
      const started = performance.now();
      call();
      return ((performance.now() - started) * 1000) / events;
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

async function measured(cell: Cell, side: Side): Promise<number> {
  if (!NO_GC) {
    collect();
    collect();
  }
  return cell.run(side);
}

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

async function main(): Promise<void> {
  const before = await loadSide('before', BEFORE);
  const after = await loadSide('after', AFTER);
  const filter = process.env.CELLS?.split(',');
  const selected = cells().filter((c) => !filter || filter.some((f) => (f.endsWith('$') ? c.name === f.slice(0, -1) : c.name.includes(f))));
  const loadStart = loadavg();
  console.log(`core A/B: before ${BEFORE}, after ${AFTER}; ${ROUNDS} rounds; load average at start ${loadStart.map((l) => l.toFixed(1)).join(' / ')}`);
  // Warm-up: every cell twice on each side (JIT, the sides' recorded sessions).
  for (const cell of selected) for (let i = 0; i < 2; i++) for (const side of [before, after]) await measured(cell, side);
  const times = new Map<Cell, { before: number[]; after: number[] }>(selected.map((c) => [c, { before: [], after: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const cell of selected) {
      const order = round % 2 === 0 ? [before, after] : [after, before];
      for (const side of order) times.get(cell)?.[side.name].push(await measured(cell, side));
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const loadEnd = loadavg();
  const rows = selected.map((cell) => {
    const t = times.get(cell) as { before: number[]; after: number[] };
    const paired = t.before.map((b, i) => b / t.after[i]).sort((a, b) => a - b);
    return { cell: cell.name, before: median(t.before), after: median(t.after), speed: median(t.before) / median(t.after), pairedMin: paired[0], pairedMedian: median(paired), pairedMax: paired[paired.length - 1] };
  });
  const header = ['cell', 'before µs', 'after µs', 'after/before speed', 'paired ratios min–median–max'];
  const lines = rows.map((r) => [r.cell, fmt(r.before), fmt(r.after), r.speed.toFixed(2), `${r.pairedMin.toFixed(2)}–${r.pairedMedian.toFixed(2)}–${r.pairedMax.toFixed(2)}`]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  for (const l of [header, ...lines]) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  console.log(`load average at end ${loadEnd.map((l) => l.toFixed(1)).join(' / ')}`);
  const worst = rows.reduce((a, b) => (b.speed < a.speed ? b : a));
  console.log(`slowest cell: ${worst.cell} at ${worst.speed.toFixed(2)} (limit 0.91)`);
  if (process.env.AB_JSON) writeFileSync(process.env.AB_JSON, `${JSON.stringify({ rounds: ROUNDS, before: BEFORE, loadStart, loadEnd, rows }, null, 1)}\n`);
  before.cleanUp();
  after.cleanUp();
}

await main();
