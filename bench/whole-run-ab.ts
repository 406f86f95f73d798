/**
 * A whole-run A/B between two builds in one process (`core-ab-sides.ts` loads them): the wall time of one entire run,
 * set-up and close included (recorder creation, lock, header, the run's own set-up), recorded and not, where
 * `core-ab.ts` compares per-turn medians, which leave per-run costs out. Rounds alternate which side goes first; the
 * first 10 rounds warm up; a full GC every 10 rounds. Prints each side's median run, the median of the per-round
 * paired ratios (before over after: above 1 is faster), recording's cost over no recording, and the load average.
 *
 * Usage (in bench/): `AB_BEFORE=<root with dist/> node --expose-gc --import tsx whole-run-ab.ts`
 * (`AB_AFTER`, default `..`; `ROUNDS`, default 200; `TURNS`, default 10; `HIST`, default 0).
 */
import { loadavg } from 'node:os';
import { loadSide } from './core-ab-sides.ts';
import { median } from './stats.ts';
import { TurnProbe } from './workload.ts';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const before = process.env.AB_BEFORE;
if (!before) throw new Error('AB_BEFORE must name the root of the build to compare against (with dist/)');
const sides = [await loadSide('before', before), await loadSide('after', process.env.AB_AFTER ?? '..')];
const ROUNDS = Number(process.env.ROUNDS ?? 200);
const spec = { turns: Number(process.env.TURNS ?? 10), history: Number(process.env.HIST ?? 0) };
console.log('load', loadavg().map((x) => x.toFixed(1)).join(' '), spec);
const t: Record<string, number[]> = {};
const ratios: Record<string, number[]> = {};
for (let r = 0; r < ROUNDS + 10; r++) {
  const order = r % 2 ? [0, 1] : [1, 0];
  const round: Record<string, number> = {};
  for (const kind of ['rec', 'q'] as const) for (const i of order) {
    const s = sides[i];
    if (r % 10 === 0) gc();
    const t0 = process.hrtime.bigint();
    await (kind === 'rec' ? s.runRecorded(spec, new TurnProbe()) : s.runQuery(spec, new TurnProbe()));
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (r >= 10) { (t[`${kind} ${s.name}`] ??= []).push(us); round[`${kind} ${s.name}`] = us; }
  }
  if (r >= 10) for (const kind of ['rec', 'q']) (ratios[kind] ??= []).push(round[`${kind} before`] / round[`${kind} after`]);
}
for (const [k, v] of Object.entries(t)) console.log(k, 'median whole-run us', median(v).toFixed(0));
for (const [k, v] of Object.entries(ratios)) console.log(k, 'paired before/after median', median(v).toFixed(3));
console.log('rec/q before', (median(t['rec before']) / median(t['q before'])).toFixed(2), 'after', (median(t['rec after']) / median(t['q after'])).toFixed(2));
console.log('load', loadavg().map((x) => x.toFixed(1)).join(' '));
