/**
 * Where a recorded turn's extra time goes in the bench's conditions (round 14): `run.ts`'s warm-up (5 runs at H=10
 * and one 30-turn run, with and without recording), then RUNS runs of N=10 (history `H`, default 0) recorded to a
 * new file each, alternating with runs without recording, each run after GCS full GCs (default 2, as `run.ts`;
 * GCS=0 shows the same runs back to back). The recorder is timed from outside (`onStep` wrapped), so the time
 * inside it includes its commit and `writeSync`. Prints the pooled per-turn medians of both, the median time inside
 * the recorder per turn (its header, before the first model call, left out), and with BY_INDEX=1 the medians per
 * turn of the run (gap k = model call k to k+1) and the recorder's time before each model call.
 *
 * `RUNS=15 node --expose-gc --import tsx recording-cold-probe.ts` (in bench/; `GCS`, `H`, `BY_INDEX`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { createSessionRecorder } from '../dist/replay/session-recorder.js';
import { TurnProbe } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const runs = Number(process.env.RUNS ?? 15);
const gcs = Number(process.env.GCS ?? 2);
const H = Number(process.env.H ?? 0);
const dir = mkdtempSync(join(tmpdir(), 'recording-cold-'));
let count = 0;

async function once(turns: number, history: number, rec: boolean) {
  for (let i = 0; i < gcs; i++) collect();
  const probe = new TurnProbe();
  let inside = 0;
  let calls = 0;
  const insideByCall: number[] = [];
  if (!rec) {
    await runTurnloop({ turns, history }, probe);
    return { micros: probe.turnMicros(), insidePerTurn: 0, insideByCall };
  }
  const path = join(dir, `r${++count}.jsonl`);
  const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
  const timed = (record: Parameters<typeof recorder>[0]) => {
    const started = performance.now();
    recorder(record);
    const micros = (performance.now() - started) * 1000;
    if (record.event !== null) {
      inside += micros;
      insideByCall[calls] = (insideByCall[calls] ?? 0) + micros;
    }
    if (record.effects.some((e) => e.type === 'call_model')) calls++;
  };
  try {
    await runTurnloop({ turns, history }, probe, timed);
  } finally {
    recorder.close();
    rmSync(path, { force: true });
  }
  return { micros: probe.turnMicros(), insidePerTurn: inside / turns, insideByCall };
}

try {
  for (const rec of [false, true]) {
    for (let i = 0; i < 5; i++) await once(10, 10, rec);
    await once(30, 100, rec);
  }
  const pooled: [number[], number[]] = [[], []];
  const byTurn: [number[][], number[][]] = [[], []];
  const inside: number[] = [];
  const insideByCall: number[][] = [];
  for (let i = 0; i < runs; i++) {
    for (const rec of i % 2 ? [true, false] : [false, true]) {
      const run = await once(10, H, rec);
      const side = rec ? 1 : 0;
      pooled[side].push(...run.micros);
      run.micros.forEach((m, k) => (byTurn[side][k] ??= []).push(m));
      if (!rec) continue;
      inside.push(run.insidePerTurn);
      run.insideByCall.forEach((m, k) => (insideByCall[k] ??= []).push(m));
    }
  }
  const medians = (xs: number[][]) => xs.map((x) => median(x).toFixed(1)).join(' ');
  if (process.env.BY_INDEX) {
    console.log(`no recording, per turn: ${medians(byTurn[0])}`);
    console.log(`recording, per turn:    ${medians(byTurn[1])}`);
    console.log(`inside the recorder before each model call: ${medians(insideByCall)}`);
  }
  console.log(`N=10 H=${H} GCS=${gcs} runs=${runs}: no recording ${median(pooled[0]).toFixed(1)} | recording ${median(pooled[1]).toFixed(1)} | inside the recorder ${median(inside).toFixed(1)} µs per turn (load ${loadavg()[0].toFixed(1)})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
