/**
 * Instruction counts of `query()` turns under callgrind, in plain JavaScript (round 17, docs/benchmarks.md "Round 17:
 * shell"). The same runs as `core-instr-probe.ts query` (the bench's workload: `runLoopToEnd` with the scripted model
 * of `systems/turnloop.ts`, one echo call per turn; the bench's warm-up of five runs at N=10, H=10 and one of 30
 * turns; then `<runs>` runs at N=10, H=10), without tsx: compiling TypeScript at start-up made two processes of one
 * build differ by up to 0.4 billion instructions before the first run, which hid any effect under a few percent.
 * Without it the start-up differs by a few million, so a difference of a few thousand instructions per run shows.
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --max-opt=1 query-instr-probe.mjs <root> <runs>
 *
 * (in bench/; `<root>/dist` is the build; run it with 0 runs and with k runs, the difference over k is one run; the
 * total is in callgrind's "Collected" line). `--max-opt=1` keeps every function in the baseline tier, as most of the
 * bench's N=10 cell is. The workload is `probe-workload.mjs`'s.
 */
import { loadProbeWorkload } from './probe-workload.mjs';

const [root, runsText] = process.argv.slice(2);
if (!root) throw new Error('usage: query-instr-probe.mjs <root> <runs>');
const runs = Number(runsText ?? 0);
const { config, echo, scriptedCaller, history, runLoopToEnd } = await loadProbeWorkload(root);

async function run(turns, historySize) {
  const { terminal } = await runLoopToEnd({ messages: history(historySize), prompt: 'Call echo until told otherwise.', tools: [echo], config, deps: { callModel: scriptedCaller(turns) } });
  if (terminal.reason !== 'completed') throw new Error(`ended with ${terminal.reason}`);
}

for (let i = 0; i < 5; i++) await run(10, 10);
await run(30, 0);
for (let i = 0; i < runs; i++) await run(10, 10);
