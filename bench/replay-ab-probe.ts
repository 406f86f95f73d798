/**
 * A paired, interleaved A/B of reading log text, between two builds in one process: `before` (a checkout given by
 * `AB_BEFORE`, built with `npm run build`) and `after` (this repository's `dist/`, or `AB_AFTER`'s). It measures,
 * in CPU time (`process.cpuUsage`), on two logs:
 * - `bench`: the bench's log (the 1,430-turn session cut after the commit group that ends within the first 10,000
 *   events, as `replay-throughput.ts` cuts it);
 * - `real`: a session spelled as real ones are: each turn a text reply then a tool call (one block per reply, as the
 *   stream adapter gives them), long ids, and tool results of a few hundred to a few thousand characters with
 *   newlines, tabs, quotes, backslashes and non-ASCII text (`—`, `✓`: the whole text is then two bytes a
 *   character), some of them errors;
 * - `latin1`: the same session with its non-ASCII text within Latin-1 (`é`, `ï`: one byte a character);
 * each of `replay({ text })`, `replay({ text }, { verify: false })` and `parseSessionLogText(text)`.
 *
 * Every round runs each measure once on each side (`REPEAT` calls per timing), the side that goes first alternating
 * round by round. Printed per measure: each side's median µs per event and the median of the per-round ratios
 * (before over after: above 1 is faster now) with its distribution-free 95% interval; the load average at the start
 * and the end. Both sides must give deep-equal results. The logs are recorded in a child process, so that neither
 * side's functions see the live interpreter's shapes first (`fold-probe.ts` says why).
 *
 * Usage (in bench/): `AB_BEFORE=/tmp/base node --import tsx replay-ab-probe.ts` (`ROUNDS=n`, default 15;
 * `REPEAT=n`, default 2; `LOGS=bench,real,latin1`; `WORKS=replay,verify:false,parse`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { ModelCaller, ModelStreamItem } from '../src/data/deps.ts';
import type { AssistantMessage } from '../src/messages/types.ts';
import { prefixText } from './replay-throughput.ts';
import { median, medianInterval } from './stats.ts';
import { BENCH_CONFIG, recordSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const REPEAT = Number(process.env.REPEAT ?? 2);
const LOGS = (process.env.LOGS ?? 'bench,real,latin1').split(',');
const WORKS = (process.env.WORKS ?? 'replay,verify:false,parse').split(',');

/**
 * A tool's output as real tools give it: lines, indentation, quotes, a backslash, non-ASCII text; `wide` adds
 * characters past U+00FF (then V8 stores the whole log text two bytes a character).
 */
function realOutput(turn: number, wide: boolean): string {
  const lines = [`$ cat "src/file-${turn}.ts"`];
  for (let i = 0; i < 4 + (turn % 40); i++) {
    lines.push(`\t${i}: const label = "naïve café ${turn}.${i}"; // C:\\path\\to\\x ${wide ? '— ✓' : '-- ok'} ${'x'.repeat(i % 7)}`);
  }
  return lines.join('\n');
}

/** Records a session of `turns` tool turns spelled as real ones are (see the module comment); its log text. */
async function recordRealSession(turns: number, wide: boolean): Promise<string> {
  const { runLoopToEnd } = await import('../dist/drivers/run-loop.js');
  const { defineTool } = await import('../dist/tools/index.js');
  const { createSessionRecorder } = await import('../dist/replay/session-recorder.js');
  const readTool = defineTool({
    name: 'read_file',
    description: 'Reads a file.',
    inputSchema: z.object({ path: z.string(), turn: z.number() }),
    isConcurrencySafe: () => true,
    call: (input) => (input.turn % 9 === 4 ? { content: `Error: "${input.path}" not found\n`, isError: true } : { content: realOutput(input.turn, wide) }),
  });
  let call = 0;
  const callModel: ModelCaller = async function* (request): AsyncGenerator<ModelStreamItem> {
    call += 1;
    const id = `msg_01${String(call).padStart(22, 'A')}`;
    const usage = { input_tokens: 1_000 + call, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 900 };
    const say = (text: string, stop: string | null): AssistantMessage => ({ type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: request.model, content: [{ type: 'text', text }], stop_reason: stop, usage } });
    if (call > turns) {
      yield { kind: 'event', event: { type: 'model_message', message: say('All done: the files say "ok".\n\n- one\n- two', 'end_turn') } };
      yield { kind: 'event', event: { type: 'model_done', usage, stopReason: 'end_turn' } };
      return;
    }
    yield { kind: 'event', event: { type: 'model_message', message: say(`Let me read "src/file-${call}.ts" next ${wide ? '—' : '-'} it's the one with the\nconfig.`, null) } };
    const toolUseId = `toolu_01${String(call).padStart(16, 'Q')}`;
    const message: AssistantMessage = { type: 'assistant', uuid: `${id}:1`, message: { id, role: 'assistant', model: request.model, content: [{ type: 'tool_use', id: toolUseId, name: 'read_file', input: { path: `src/file-${call}.ts`, turn: call } }], stop_reason: 'tool_use', usage } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage, stopReason: 'tool_use' } };
  };
  const path = join(tmpdir(), `turnloop-replay-ab-${process.pid}.jsonl`);
  const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
  try {
    const { terminal } = await runLoopToEnd({ prompt: 'Read the files.', tools: [readTool], config: BENCH_CONFIG, deps: { callModel }, onStep: recorder });
    if (terminal.reason !== 'completed') throw new Error(`the real-like session ended with ${terminal.reason}`);
    if (recorder.error) throw recorder.error;
  } finally {
    recorder.close();
  }
  const text = readFileSync(path, 'utf8');
  rmSync(path, { force: true });
  return text;
}

// Recorded in a child process (see the module comment).
const recordedPath = join(tmpdir(), `turnloop-replay-ab-${process.pid}.json`);
if (process.env.REPLAY_AB_RECORD) {
  const bench = prefixText((await recordSession({ turns: 1_430, history: 0 }, new TurnProbe())).text, 10_000).text;
  writeFileSync(process.env.REPLAY_AB_RECORD, JSON.stringify({ bench, real: await recordRealSession(1_200, true), latin1: await recordRealSession(1_200, false) }));
  process.exit(0);
}
const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { env: { ...process.env, REPLAY_AB_RECORD: recordedPath }, encoding: 'utf8' });
if (child.status !== 0) throw new Error(`replay-ab-probe: recording failed: ${child.stderr}`);
const texts = JSON.parse(readFileSync(recordedPath, 'utf8')) as Record<string, string>;
rmSync(recordedPath);

type Replay = typeof import('../dist/replay/replay.js');
type Parse = typeof import('../dist/replay/parse-session-log.js');

async function sideAt(root: string): Promise<Map<string, () => unknown>> {
  const { replay } = (await import(join(root, 'dist/replay/replay.js'))) as Replay;
  const { parseSessionLogText } = (await import(join(root, 'dist/replay/parse-session-log.js'))) as Parse;
  const works = new Map<string, () => unknown>();
  for (const log of LOGS) {
    const text = texts[log];
    const all: Record<string, () => unknown> = {
      replay: () => replay({ text }),
      'verify:false': () => replay({ text }, { verify: false }),
      parse: () => parseSessionLogText(text),
    };
    for (const work of WORKS) works.set(`${log} ${work}`, all[work]);
  }
  return works;
}

const events = (text: string) => text.split('\n').filter((line) => line.startsWith('{"kind":"event"')).length;
const sides = { before: await sideAt(process.env.AB_BEFORE ?? '/tmp/chk-main'), after: await sideAt(process.env.AB_AFTER ?? join(import.meta.dirname, '..')) };
for (const [name, work] of sides.after) {
  if (!isDeepStrictEqual(work(), sides.before.get(name)?.())) throw new Error(`replay-ab-probe: the two sides' ${name} results differ`);
}
console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const log of LOGS) console.log(`${log}: ${events(texts[log])} events, ${texts[log].length} characters`);

const times = new Map<string, { before: number[]; after: number[] }>();
for (let round = 0; round < ROUNDS + 2; round++) {
  for (const name of sides.after.keys()) {
    const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const side of order) {
      const work = sides[side].get(name) as () => unknown;
      const cpu = process.cpuUsage();
      for (let i = 0; i < REPEAT; i++) work();
      const used = process.cpuUsage(cpu);
      if (round < 2) continue;
      const entry = times.get(name) ?? { before: [], after: [] };
      entry[side].push((used.user + used.system) / REPEAT);
      times.set(name, entry);
    }
  }
}
for (const [name, { before, after }] of times) {
  const count = events(texts[name.split(' ')[0]]);
  const ratios = before.map((time, i) => time / after[i]);
  const interval = medianInterval(ratios);
  const bounds = interval ? ` [${interval[0].toFixed(3)}–${interval[1].toFixed(3)}]` : '';
  console.log(`${name.padEnd(20)} before ${(median(before) / count).toFixed(3)} µs/event, after ${(median(after) / count).toFixed(3)}; paired speed-up ${median(ratios).toFixed(3)}${bounds} over ${ratios.length} rounds`);
}
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
