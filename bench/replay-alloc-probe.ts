/**
 * What `replay({ text })` allocates, by function, on the bench's log (the 1,430-turn session cut after the commit
 * group that ends within the first 10,000 events, as `replay-throughput.ts` cuts it). V8's sampling heap profiler
 * (through `node:inspector`) runs over `ROUNDS` replays after 30 warm-up ones, counting objects the scavenger and
 * the full collector freed too (`--heap-prof` counts only what is still alive at the end). It prints the bytes per
 * replay in total and, as a tree under `foldLogText` (the one-pass fold of log text), each function's total with
 * its own share (`self`; functions V8 inlined count as their caller's). A breakdown, not an A/B: run it on both
 * builds (`DIST=<tree>/dist`) to compare.
 *
 * Usage (in bench/): `node --import tsx replay-alloc-probe.ts` (`ROUNDS=n`, default 20; `DIST=path`, default
 * `../dist`; `MIN_KB=n`, default 20: smaller nodes are left out).
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { prefixText } from './replay-throughput.ts';
import { recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const MIN_KB = Number(process.env.MIN_KB ?? 20);
const dist = process.env.DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const { replay } = (await import(`${dist}/replay/replay.js`)) as typeof import('../dist/replay/replay.js');

const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
const { text, events } = prefixText(session.text, 10_000);
for (let i = 0; i < 30; i++) replay({ text });

const inspector = new Session();
inspector.connect();
await inspector.post('HeapProfiler.enable');
await inspector.post('HeapProfiler.startSampling', {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < ROUNDS; i++) replay({ text });
const { profile } = (await inspector.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
inspector.disconnect();

function total(node: ProfileNode): number {
  return node.children.reduce((sum, child) => sum + total(child), node.selfSize);
}

function find(node: ProfileNode, name: string): ProfileNode | null {
  if (node.callFrame.functionName === name) return node;
  for (const child of node.children) {
    const found = find(child, name);
    if (found) return found;
  }
  return null;
}

const kb = (bytes: number) => (bytes / ROUNDS / 1e3).toFixed(0);

function show(node: ProfileNode, depth: number): void {
  if (total(node) / ROUNDS / 1e3 < MIN_KB) return;
  const { functionName, url, lineNumber } = node.callFrame;
  console.log(`${' '.repeat(depth * 2)}${kb(total(node))} kB (self ${kb(node.selfSize)}) ${functionName || '(anonymous)'} ${url.split('/').slice(-1)[0]}:${lineNumber + 1}`);
  for (const child of node.children) show(child, depth + 1);
}

console.log(`${events} events, ${text.length} characters, ${ROUNDS} replays sampled (${dist})`);
console.log(`allocated per replay: ${(total(profile.head) / ROUNDS / 1e6).toFixed(2)} MB`);
const fold = find(profile.head, 'foldLogText');
if (fold) show(fold, 0);
else console.log('foldLogText not found (inlined, or the text took the slow path)');
