/**
 * A quick probe of `replay()` of log text, outside the full benchmark: records the bench workload (1,430 tool
 * turns), cuts its log after the commit group that ends within the first 10,000 events (as the bench does), then
 * replays it a few times and prints the median rate with and without verification and for parsing alone, on wall
 * time and on this process's CPU time (events per CPU second: on a shared machine the wall figure also counts the
 * time other processes held the cores).
 *
 * With `AB_BEFORE=<checkout>` (built with `npm run build`), that checkout's `dist/` runs beside this one's in the
 * same process, on the same log text: every round runs each side once, the side that goes first alternating, and
 * the probe prints each side's medians and the median of the per-round CPU-time ratios (before over after: above 1
 * is faster now) with its distribution-free 95% interval (`medianInterval`).
 *
 * Usage: `node --import tsx replay-probe.ts` (`ROUNDS=n`; `ONLY=replay|unverified|parse`; `AB_BEFORE=path`); add
 * `--cpu-prof` to profile.
 */
import { join } from 'node:path';
import { prefixText } from './replay-throughput.ts';
import { recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';
import { median, medianInterval } from './stats.ts';

type Work = Record<string, () => unknown>;

async function sideAt(root: string, text: string): Promise<Work> {
  const { parseSessionLogText } = (await import(join(root, 'dist/replay/parse-session-log.js'))) as typeof import('../dist/replay/parse-session-log.js');
  const { replay } = (await import(join(root, 'dist/replay/replay.js'))) as typeof import('../dist/replay/replay.js');
  return {
    replay: () => replay({ text }),
    unverified: () => replay({ text }, { verify: false }),
    parse: () => parseSessionLogText(text),
  };
}

/** One call's wall and CPU milliseconds. */
function timed(work: () => unknown): { wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  work();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpuBefore);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const rate = (events: number, ms: number) => Math.round((events / ms) * 1000).toLocaleString('en-US');

const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
const { text, events } = prefixText(session.text, 10_000);
const sides: Array<{ name: string; work: Work }> = [{ name: 'after', work: await sideAt(join(import.meta.dirname, '..'), text) }];
if (process.env.AB_BEFORE) sides.unshift({ name: 'before', work: await sideAt(process.env.AB_BEFORE, text) });
const only = process.env.ONLY?.split(',') ?? Object.keys(sides[0].work);
const times = new Map<string, Array<{ wall: number; cpu: number }>>();
for (let round = 0; round < Number(process.env.ROUNDS ?? 15) + 2; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const name of only) {
    for (const side of order) {
      const time = timed(side.work[name]);
      const key = `${side.name} ${name}`;
      if (round >= 2) times.set(key, [...(times.get(key) ?? []), time]);
    }
  }
}
for (const name of only) {
  for (const side of sides) {
    const list = times.get(`${side.name} ${name}`) ?? [];
    const wall = median(list.map((t) => t.wall));
    const cpu = median(list.map((t) => t.cpu));
    console.log(`${side.name.padEnd(6)} ${name.padEnd(11)} wall ${wall.toFixed(1)} ms, ${rate(events, wall)} events/s; CPU ${cpu.toFixed(1)} ms, ${rate(events, cpu)} events per CPU second`);
  }
  if (sides.length === 2) {
    const before = times.get(`before ${name}`) ?? [];
    const after = times.get(`after ${name}`) ?? [];
    const ratios = before.map((t, i) => t.cpu / after[i].cpu);
    const interval = medianInterval(ratios);
    const bounds = interval ? ` [95% ${interval[0].toFixed(2)}–${interval[1].toFixed(2)}]` : '';
    console.log(`paired ${name.padEnd(11)} CPU speed-up (before/after per round): median ${median(ratios).toFixed(2)}${bounds}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} over ${ratios.length} rounds`);
  }
}
