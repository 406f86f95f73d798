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
 * bench's N=10 cell is. Keep it in step with `systems/turnloop.ts` and `core-ab-sides.ts` (same config, tool, model).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const [root, runsText] = process.argv.slice(2);
if (!root) throw new Error('usage: query-instr-probe.mjs <root> <runs>');
const runs = Number(runsText ?? 0);
const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { resolveConfig } = await load('config/config.js');
const { defineTool } = await load('tools/index.js');
const { runLoopToEnd } = await load('drivers/run-loop.js');
const { z } = createRequire(join(root, 'package.json'))('zod');

const config = resolveConfig({ sessionId: 'bench', limits: { maxModelCalls: 1_000_000 } });
const echo = defineTool({
  name: 'echo',
  description: 'Answers its text unchanged.',
  inputSchema: z.object({ text: z.string() }),
  isConcurrencySafe: () => true,
  call: (input) => ({ content: input.text }),
});
const USAGE = { input_tokens: 1_000, output_tokens: 20 };

/** `systems/turnloop.ts`'s scripted model: call k asks for echo while k <= turns, then answers with text. */
function scriptedCaller(turns) {
  let call = 0;
  return async function* (request) {
    call += 1;
    const id = `msg_${call}`;
    const block = call <= turns ? { type: 'tool_use', id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } } : { type: 'text', text: 'All done.' };
    const stopReason = call <= turns ? 'tool_use' : 'end_turn';
    const message = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
  };
}

function history(size) {
  const messages = [];
  for (let i = 0; i < size; i++) {
    const text = `earlier message ${i}`;
    messages.push(i % 2 === 0
      ? { type: 'user', uuid: `h${i}`, message: { role: 'user', content: text } }
      : { type: 'assistant', uuid: `h${i}`, message: { id: `hmsg_${i}`, role: 'assistant', model: config.model, content: [{ type: 'text', text }], stop_reason: 'end_turn' } });
  }
  return messages;
}

async function run(turns, historySize) {
  const { terminal } = await runLoopToEnd({ messages: history(historySize), prompt: 'Call echo until told otherwise.', tools: [echo], config, deps: { callModel: scriptedCaller(turns) } });
  if (terminal.reason !== 'completed') throw new Error(`ended with ${terminal.reason}`);
}

for (let i = 0; i < 5; i++) await run(10, 10);
await run(30, 0);
for (let i = 0; i < runs; i++) await run(10, 10);
