/**
 * Instruction counts of `replay({ text })` of one log text, for `valgrind --tool=callgrind`, which counts the same
 * on a loaded machine as on a quiet one (round 16, docs/benchmarks.md "Round 16: replay").
 *
 * `node --import tsx replay-instr-probe.ts <root> <log file> <replays> [verify|noverify]` (in bench/): loads
 * `<root>/dist/replay/replay.js`, replays the log 20 times to warm up, then `<replays>` more times. Run it under
 * callgrind with 0 and with k replays and divide the difference by k (start-up and warm-up cancel):
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --import tsx replay-instr-probe.ts /tmp/base /tmp/log.jsonl 20
 *
 * (the total is in callgrind's last line on stderr: "Collected : <n>"). Write the bench's log to a file first with
 * `LOG_OUT=/tmp/log.jsonl node --import tsx replay-instr-probe.ts`: the 1,430-turn session cut as
 * `replay-throughput.ts` cuts it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

if (process.env.LOG_OUT) {
  const { prefixText } = await import('./replay-throughput.ts');
  const { recordSession } = await import('./systems/turnloop.ts');
  const { TurnProbe } = await import('./workload.ts');
  const session = await recordSession({ turns: 1_430, history: 0 }, new TurnProbe());
  writeFileSync(process.env.LOG_OUT, prefixText(session.text, 10_000).text);
} else {
  const [root, file, replaysText, mode] = process.argv.slice(2);
  if (!root || !file) throw new Error('usage: replay-instr-probe.ts <root> <log file> <replays> [verify|noverify]');
  const { replay } = (await import(pathToFileURL(join(root, 'dist/replay/replay.js')).href)) as typeof import('../dist/replay/replay.js');
  const text = readFileSync(file, 'utf8');
  const options = { verify: mode !== 'noverify' };
  for (let i = 0; i < 20; i++) replay({ text }, options);
  for (let i = 0; i < Number(replaysText ?? 0); i++) replay({ text }, options);
}
