/**
 * A quick probe of `step()` fold speed, outside the full benchmark: records the bench workload (1,430 tool turns),
 * then folds its first 10,000 events through `step()` a few times and prints the median rate.
 *
 * Usage: `node --import tsx fold-probe.ts` (`ROUNDS=n` for more rounds); add `--cpu-prof` to profile.
 */
import { foldEvents, recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const EVENTS = 10_000;
const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
const folded = { ...session, events: session.events.slice(0, EVENTS) };
for (let i = 0; i < 3; i++) foldEvents(folded, () => undefined);
const times: number[] = [];
for (let i = 0; i < Number(process.env.ROUNDS ?? 5); i++) {
  const started = performance.now();
  foldEvents(folded, () => undefined);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`fold of ${EVENTS} events: median ${median.toFixed(1)} ms, ${Math.round((EVENTS / median) * 1000).toLocaleString('en-US')} events/s`);
