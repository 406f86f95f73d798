/**
 * What one memoized step costs, by event type: folds the bench's recorded run (default N=10, H=10) through a
 * `createStepper({ memo: true })` over the shared chart paths, as the bench's fold cell does, many times, and prints
 * the mean wall time of each event type's `step` (and of `initialState`) in µs, with how often each type occurs per
 * fold. Each step is timed alone with `performance.now()`, whose own cost (tens of ns) is included. The first 2,000
 * folds warm up and are not counted.
 *
 * Usage (in bench/): `node --import tsx step-cost-probe.ts` (`FOLDS=n`, default 30,000; `TURNS`, `HISTORY`).
 */
import { createStepper } from '../dist/reducer/stepper.js';
import { sharedChartPaths } from '../dist/runtime/chart-paths.js';
import { BENCH_CONFIG, recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const FOLDS = Number(process.env.FOLDS ?? 30_000);
const WARM = 2_000;
const session = await recordSession({ turns: Number(process.env.TURNS ?? 10), history: Number(process.env.HISTORY ?? 10) }, new TurnProbe());
const total = new Map<string, number>();
const count = new Map<string, number>();
const add = (type: string, ms: number) => {
  total.set(type, (total.get(type) ?? 0) + ms);
  count.set(type, (count.get(type) ?? 0) + 1);
};
for (let fold = 0; fold < FOLDS; fold++) {
  const { initialState, step } = createStepper({ memo: true, paths: sharedChartPaths() });
  let started = performance.now();
  let state = initialState(session.params, BENCH_CONFIG).state;
  if (fold >= WARM) add('(initialState)', performance.now() - started);
  for (const event of session.events) {
    started = performance.now();
    state = step(state, event, BENCH_CONFIG).state;
    if (fold >= WARM) add(event.type, performance.now() - started);
  }
  if (state.status !== 'done') throw new Error('the fold did not reach a terminal');
}
const counted = FOLDS - WARM;
for (const [type, ms] of total) {
  const n = count.get(type) as number;
  console.log(`${type.padEnd(24)} ${((ms / n) * 1000).toFixed(3)} µs  (${(n / counted).toFixed(1)} per fold)`);
}
