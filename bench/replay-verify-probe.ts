/**
 * What hash verification adds to `replay()` of log text, piece by piece, on the bench's log (the 1,430-turn session
 * cut after the commit group that ends within the first 10,000 events, as `replay-throughput.ts` cuts it). Every
 * round times, in CPU milliseconds of this process, one call each of:
 * - `replay({ text })` and `replay({ text }, { verify: false })` (their difference is what verification costs);
 * - every commit group hashed as replay hashes it (`groupHasher`: the previous hash, a newline and the group's text);
 * - one SHA-256 of the whole text (the floor: every byte must be hashed once).
 * It prints the medians over the rounds, the number of groups and the text's size. A breakdown, not an A/B.
 *
 * Usage: `node --import tsx replay-verify-probe.ts` (`ROUNDS=n`, default 31).
 */
import { hash } from 'node:crypto';
import { groupHasher, replay } from '../dist/replay/replay.js';
import { prefixText } from './replay-throughput.ts';
import { median } from './stats.ts';
import { recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
const { text, events } = prefixText(session.text, 10_000);

/** Each commit group: where it starts and where its hashed bytes end (before `,"hash":"…"}`), and its hash. */
const groups: Array<{ from: number; to: number; hash: string }> = [];
for (let start = text.indexOf('\n') + 1, from = start; start < text.length; ) {
  const end = text.indexOf('\n', start);
  if (text.startsWith('"hash":"', end - 26)) {
    groups.push({ from, to: end - 27, hash: text.slice(end - 18, end - 2) });
    from = end + 1;
  }
  start = end + 1;
}
const initialHash = text.slice(text.indexOf('\n') - 18, text.indexOf('\n') - 2);

function hashGroups(): void {
  const hasher = groupHasher();
  let previous = initialHash;
  for (const group of groups) {
    previous = hasher(previous, text, group.from, group.to);
    if (previous !== group.hash) throw new Error('a group does not hash to its recorded hash');
  }
}

const work: Record<string, () => unknown> = {
  'replay()': () => replay({ text }),
  'replay() verify:false': () => replay({ text }, { verify: false }),
  'groups hashed': hashGroups,
  'SHA-256 of the text': () => hash('sha256', text, 'hex'),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(work).map((name) => [name, []]));
for (let round = 0; round < Number(process.env.ROUNDS ?? 31) + 2; round++) {
  for (const [name, call] of Object.entries(work)) {
    const before = process.cpuUsage();
    call();
    const used = process.cpuUsage(before);
    if (round >= 2) times[name].push((used.user + used.system) / 1000);
  }
}
console.log(`${events} events, ${groups.length} commit groups, ${text.length} characters`);
for (const [name, list] of Object.entries(times)) {
  const ms = median(list);
  console.log(`${name.padEnd(22)} ${ms.toFixed(2)} ms CPU, ${((ms * 1000) / events).toFixed(3)} µs/event`);
}
