/**
 * What recording would cost in the bench's `turnloop+rec` cells if it gave up one of its guarantees (round 16;
 * none of these is landed). Per round, in rotated order, one run of each side, each as `run.ts` makes it (two full
 * GCs first, a new recorder to a new file, closed after), after `run.ts`'s warm-up for every side:
 * - `none`: no recording;
 * - `rec`: the recorder as it is (`createSessionRecorder`);
 * - `deferred`: the same recorder, told of no model call (`call_model` taken out of the effects it reads, which it
 *   logs nowhere): a turn's lines then go out at the next commit before work that may change the world, at the
 *   writer's next event-loop turn, or at `close()`: in a real session, while the process waits for the model's
 *   answer; in this workload (a model that answers at once, a concurrency-safe tool) at the end of the run, which
 *   the bench does not time. Gives up "each request goes out with the log complete up to it".
 * - `nochain`: each event's redacted JSON text alone per line, written before each model call (as `rec`), with no
 *   hash chain and no digest `at`: gives up what `verify` proves and where a replay diverges.
 * - `serialise` / `write` (with SIDES=…): `nochain` making the texts and writing nothing, or writing a fixed text of
 *   a turn's size (1,701 bytes) without making any: which of the two a turn pays for; `stringify`: as `serialise`
 *   with every event through `JSON.stringify` and the texts checked whole; `commit`: the queue and a commit per
 *   model call with nothing made or written.
 * Prints per side the pooled per-turn median (what the bench reports), its ratio to `none`, the median time of a
 * whole run with `close()` (where `deferred` does its work; it also holds the recorder's set-up and header), and
 * with INSIDE=1 the time inside the observer per timed turn (the observer wrapped, which adds its own cost; mean
 * per run, median over runs: the rest of a turn's extra is the loop's own code running slower beside it).
 *
 * `ROUNDS=40 node --expose-gc --import tsx recording-trade-probe.ts` (in bench/; `N` and `H`, default 10 and 10;
 * `SIDES`, default none,rec,deferred,nochain; `GCS`, full GCs before each run, default 2; `INSIDE`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepRecord } from '../src/runtime/query-options.ts';
import { createSessionRecorder } from '../dist/replay/session-recorder.js';
import { createRedactor, secretValuesFromEnv } from '../dist/replay/redact.js';
import { loggedEventJsons } from '../dist/replay/event-json.js';
import { openLogWriter } from '../dist/replay/log-writer.js';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const ROUNDS = Number(process.env.ROUNDS ?? 40);
/** Full GCs before each run (2, as `run.ts`; 0 shows the same runs back to back). */
const GCS = Number(process.env.GCS ?? 2);
const INSIDE = process.env.INSIDE === '1';
const spec = { turns: Number(process.env.N ?? 10), history: Number(process.env.H ?? 10) };
const dir = mkdtempSync(join(tmpdir(), 'recording-trade-'));
let count = 0;

type Observer = ((record: StepRecord) => void) & { close(): void; readonly error?: Error | null };
type Side = 'none' | 'rec' | 'deferred' | 'nochain' | 'serialise' | 'write' | 'stringify' | 'commit';
/**
 * What `nochain` hands the writer per commit: the events' texts (`full`), nothing (`serialise`: texts made and
 * dropped; `stringify`: the same by `JSON.stringify`), a fixed text of a turn's size without making any (`write`),
 * or nothing at all (`commit`: the queue and the commits alone).
 */
type Pull = 'full' | 'serialise' | 'write' | 'stringify' | 'commit';
const TURN_TEXT = `${'x'.repeat(1700)}\n`;

/** The recorder's choice of when to commit, for `nochain` (the same cases as `commitsBefore`). */
function commitsBefore(effects: readonly StepRecord['effects'][number][]): boolean {
  for (const effect of effects) {
    if (effect.type === 'call_model' || effect.type === 'run_stop_hooks' || effect.type === 'terminated') return true;
    if (effect.type === 'run_tools' && effect.batches.some((batch) => !batch.concurrent)) return true;
    if (effect.type === 'enqueue_tool' && !effect.concurrencySafe) return true;
  }
  return false;
}

/** `nochain`: the events' redacted texts, one a line, one write per commit; no header, hash or digest. */
function noChainRecorder(path: string, mode: Pull = 'full'): Observer {
  const secretValues = secretValuesFromEnv(process.env);
  const redact = createRedactor({ secretValues });
  // The recorder's own rule (`session-recorder.ts`): the common events' texts are checked too when a secret value
  // from the environment could match them.
  const checksCommon = secretValues.some((value) => value.length > 0);
  let pending: StepRecord[] = [];
  const writer = openLogWriter(path, {
    fsync: false,
    onError: (error) => {
      throw error;
    },
    pull: () => {
      if (pending.length === 0) return '';
      if (mode === 'write' || mode === 'commit') {
        pending = [];
        return mode === 'write' ? TURN_TEXT : '';
      }
      if (mode === 'stringify') {
        const texts = pending.map((step) => JSON.stringify(step.event));
        if (!redact.isCleanJson(texts.join('\n'))) throw new Error('not clean');
        pending = [];
        return '';
      }
      const { jsons, failure } = loggedEventJsons(pending as never, redact, checksCommon);
      if (failure !== null) throw failure;
      pending = [];
      return mode === 'serialise' ? '' : `${jsons.join('\n')}\n`;
    },
  });
  const observer = ((record: StepRecord) => {
    if (record.event === null) return;
    pending.push(record);
    if (commitsBefore(record.effects)) writer.commit();
    else if (pending.length === 1) writer.touch();
  }) as Observer;
  observer.close = () => writer.close();
  return observer;
}

/** `deferred`: the recorder as it is, shown each step's effects without `call_model`. */
function deferredRecorder(path: string): Observer {
  const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
  const observer = ((record: StepRecord) => {
    if (record.effects.some((effect) => effect.type === 'call_model')) {
      recorder({ ...record, effects: record.effects.filter((effect) => effect.type !== 'call_model') });
    } else recorder(record);
  }) as Observer;
  observer.close = () => recorder.close();
  Object.defineProperty(observer, 'error', { get: () => recorder.error });
  return observer;
}

const makers: Record<Side, ((path: string) => Observer) | null> = {
  none: null,
  rec: (path) => createSessionRecorder(path, { config: BENCH_CONFIG }) as unknown as Observer,
  deferred: deferredRecorder,
  nochain: (path) => noChainRecorder(path),
  serialise: (path) => noChainRecorder(path, 'serialise'),
  write: (path) => noChainRecorder(path, 'write'),
  stringify: (path) => noChainRecorder(path, 'stringify'),
  commit: (path) => noChainRecorder(path, 'commit'),
};
const sides = (process.env.SIDES?.split(',') ?? ['none', 'rec', 'deferred', 'nochain']) as Side[];

async function once(side: Side, turns: number, history: number): Promise<{ turns: number[]; run: number; inside: number }> {
  for (let i = 0; i < GCS; i++) collect();
  const probe = new TurnProbe();
  const make = makers[side];
  const started = performance.now();
  if (make === null) {
    await runTurnloop({ turns, history }, probe);
    return { turns: probe.turnMicros(), run: (performance.now() - started) * 1000, inside: 0 };
  }
  const path = join(dir, `r${++count}.jsonl`);
  const observer = make(path);
  // Time inside the observer during the timed turns (steps after the first model call up to the last one's).
  let calls = 0;
  let inside = 0;
  const timed = (record: StepRecord) => {
    const counted = calls >= 1 && calls < turns;
    const before = performance.now();
    observer(record);
    if (counted) inside += performance.now() - before;
    if (record.effects.some((effect) => effect.type === 'call_model')) calls++;
  };
  try {
    await runTurnloop({ turns, history }, probe, INSIDE ? timed : observer);
  } finally {
    observer.close();
  }
  // A recorder that stopped on an error would look cheap.
  if (observer.error) throw observer.error;
  const run = (performance.now() - started) * 1000;
  rmSync(path, { force: true });
  return { turns: probe.turnMicros(), run, inside: (inside * 1000) / (turns - 1) };
}

try {
  const loadBefore = loadavg()[0];
  for (const side of sides) {
    for (let i = 0; i < 5; i++) await once(side, 10, 10);
    await once(side, 30, 100);
  }
  const turns: Record<string, number[]> = {};
  const runs: Record<string, number[]> = {};
  const insides: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length];
      const result = await once(side, spec.turns, spec.history);
      (turns[side] ??= []).push(...result.turns);
      (runs[side] ??= []).push(result.run);
      (insides[side] ??= []).push(result.inside);
    }
  }
  const base = median(turns.none);
  const baseRun = median(runs.none);
  console.log(`N=${spec.turns} H=${spec.history}, ${ROUNDS} rounds, load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
  for (const side of sides) {
    const t = median(turns[side]);
    const r = median(runs[side]);
    const inside = INSIDE ? `, inside the observer ${median(insides[side]).toFixed(1)}` : '';
    console.log(`${side.padEnd(9)} per turn ${t.toFixed(1)} µs (${(t / base).toFixed(2)}×)${inside} | whole run with close() ${r.toFixed(0)} µs (${(r / baseRun).toFixed(2)}×)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
