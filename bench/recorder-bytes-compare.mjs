/**
 * Whether two builds' recorders write the same bytes (round 18): the step records of a few runs are made once (by
 * `<after>`'s loop, the header's clock fixed), then each build's `createSessionRecorder` writes them to its own file,
 * and the files are compared byte for byte. The runs: the bench's workload (N=10, H=10), tool results and replies
 * with quotes, backslashes, newlines, control characters, unicode, a lone surrogate, U+2028, an error result, a
 * 100,000-character result, secrets (a GitHub token, an Anthropic key, `NAME=value`), with and without an extra
 * redaction pattern and a secret value from the environment. Prints one line per run and exits 1 on a difference.
 *
 *   node recorder-bytes-compare.mjs <before-root> <after-root>
 *
 * (in bench/; each root has a `dist/` built by `npm run build`.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const [beforeRoot, afterRoot] = process.argv.slice(2);
if (!beforeRoot || !afterRoot) throw new Error('usage: recorder-bytes-compare.mjs <before-root> <after-root>');
const load = (root, path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { resolveConfig } = await load(afterRoot, 'config/config.js');
const { defineTool } = await load(afterRoot, 'tools/index.js');
const { runLoopToEnd } = await load(afterRoot, 'drivers/run-loop.js');
const recorders = { before: (await load(beforeRoot, 'replay/session-recorder.js')).createSessionRecorder, after: (await load(afterRoot, 'replay/session-recorder.js')).createSessionRecorder };
const { z } = createRequire(join(afterRoot, 'package.json'))('zod');
// The header's clock, fixed so both files can be the same.
Date.prototype.toISOString = () => '2026-12-06T00:00:00.000Z';

const config = resolveConfig({ sessionId: 'bytes', limits: { maxModelCalls: 1_000_000 } });
const USAGE = { input_tokens: 1_000, output_tokens: 20 };
const AWKWARD = ['ping', 'say "hi"\nC:\\dir\ttab', '\u0000\u001f\u007f', 'lone \ud800 surrogate', 'é ü 日本語 😀', '\u2028\u2029 </script>', 'token ghp_0123456789abcdefghijABCDEFGHIJ0123456789', 'key sk-ant-api03-abcdefghijklmnop', 'export API_TOKEN=abcdef123456', 'x'.repeat(100_000)];

function tool(awkward) {
  return defineTool({
    name: 'echo',
    description: 'Answers its text, or an awkward one.',
    inputSchema: z.object({ text: z.string() }),
    isConcurrencySafe: () => true,
    call: (input, context) => {
      const i = Number(input.text.split(' ')[1]);
      if (awkward && i % 4 === 3) throw new Error(`failed: ${AWKWARD[i % AWKWARD.length]}`);
      return { content: awkward ? AWKWARD[i % AWKWARD.length] : input.text };
    },
  });
}

function caller(turns, awkward) {
  let call = 0;
  return async function* (request) {
    call += 1;
    const id = `msg_${call}`;
    const text = awkward ? AWKWARD[call % AWKWARD.length].slice(0, 200) : 'All done.';
    const blocks = call <= turns ? [...(awkward ? [{ type: 'text', text }] : []), { type: 'tool_use', id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } }] : [{ type: 'text', text }];
    const stopReason = call <= turns ? 'tool_use' : 'end_turn';
    const message = { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: blocks, stop_reason: stopReason, usage: USAGE } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
  };
}

function history(size) {
  return Array.from({ length: size }, (_, i) => (i % 2 === 0
    ? { type: 'user', uuid: `h${i}`, message: { role: 'user', content: `earlier message ${i}` } }
    : { type: 'assistant', uuid: `h${i}`, message: { id: `hmsg_${i}`, role: 'assistant', model: config.model, content: [{ type: 'text', text: `earlier message ${i}` }], stop_reason: 'end_turn' } }));
}

async function steps(turns, historySize, awkward) {
  const records = [];
  const { terminal } = await runLoopToEnd({ messages: history(historySize), prompt: 'Call echo until told otherwise.', tools: [tool(awkward)], config, deps: { callModel: caller(turns, awkward) }, onStep: (step) => records.push(step) });
  if (terminal.reason !== 'completed') throw new Error(`ended with ${terminal.reason}`);
  return records;
}

const dir = mkdtempSync(join(tmpdir(), 'recorder-bytes-'));
// The default store of oversized tool results writes under the working directory: keep it inside the temporary one,
// so this probe leaves nothing behind (the bench refuses to run where a run wrote `.turnloop/`).
const cwd = process.cwd();
process.chdir(dir);
let differ = false;
try {
  const cases = [
    { name: 'bench workload N=10 H=10', records: await steps(10, 10, false), options: {} },
    { name: 'awkward results and replies, secrets', records: await steps(24, 3, true), options: {} },
    { name: 'the same with an extra pattern', records: await steps(12, 0, true), options: { redact: { patterns: ['ping \\d+'] } } },
    { name: 'the same with a secret value', records: await steps(12, 0, true), options: { redact: { secretValues: ['abcdef123456'] } } },
  ];
  for (const [i, { name, records, options }] of cases.entries()) {
    const texts = {};
    for (const side of ['before', 'after']) {
      const path = join(dir, `${side}-${i}.jsonl`);
      const recorder = recorders[side](path, { config, ...options });
      for (const record of records) recorder(record);
      recorder.close();
      if (recorder.error) throw recorder.error;
      texts[side] = readFileSync(path);
    }
    const same = texts.before.equals(texts.after);
    differ ||= !same;
    const text = texts.after.toString('utf8');
    const masked = text.split('[REDACTED]').length - 1;
    const errors = text.split('"is_error":true').length - 1;
    console.log(`${same ? 'same' : 'DIFFERENT'}: ${name}, ${records.length} steps, ${texts.after.length} bytes, ${masked} masks, ${errors} error results`);
  }
} finally {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = differ ? 1 : 0;
