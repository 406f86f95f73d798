/**
 * A quick probe of `replay()` of log text, outside the full benchmark: records the bench workload (1,430 tool
 * turns), cuts its log after the commit group that ends within the first 10,000 events (as the bench does), then
 * replays it a few times and prints the median rate with and without verification and for parsing alone.
 *
 * Usage: `node --import tsx replay-probe.ts` (`ROUNDS=n`; `ONLY=replay|unverified|parse`); add `--cpu-prof` to profile.
 */
import { parseSessionLogText } from '../dist/replay/parse-session-log.js';
import { replay } from '../dist/replay/replay.js';
import { prefixText } from './replay-throughput.ts';
import { recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
const { text, events } = prefixText(session.text, 10_000);
const work: Record<string, () => unknown> = {
  replay: () => replay({ text }),
  unverified: () => replay({ text }, { verify: false }),
  parse: () => parseSessionLogText(text),
};
const only = process.env.ONLY?.split(',') ?? Object.keys(work);
const times = new Map<string, number[]>(only.map((k) => [k, []]));
for (let round = 0; round < Number(process.env.ROUNDS ?? 15) + 2; round++) {
  for (const name of only) {
    const started = performance.now();
    work[name]();
    if (round >= 2) times.get(name)?.push(performance.now() - started);
  }
}
for (const [name, list] of times) {
  list.sort((a, b) => a - b);
  const median = list[Math.floor(list.length / 2)];
  console.log(`${name.padEnd(11)} median ${median.toFixed(1)} ms, ${Math.round((events / median) * 1000).toLocaleString('en-US')} events/s (fastest ${Math.round((events / list[0]) * 1000).toLocaleString('en-US')})`);
}
