/**
 * The SDK's speed through each executable on one offline script: time to the first SDK message, to the first
 * assistant message, and per model turn after it, median of several runs (`npm run bench`, inside the
 * loopback-only namespace of run-offline.sh). Prints a markdown block for docs/benchmarks.md.
 *
 * turnloop starts as agentSdkOptions() starts it: from the build's start-up snapshot when it fits this Node.
 * The script: three Read calls, then a text answer (four model turns, one tool per turn). Each run has a fresh
 * process, fake API, working directory and config directory, as an SDK test would. Beside it, the shell form: a
 * one-turn `-p` (one text reply) from spawn to exit, without the SDK.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { ENGINES, engineOptions, makeRunDirs, type EngineName } from './harness/engines.ts';
import { startFakeAnthropicApi } from './harness/fake-api.ts';
import { assertLoopbackOnly } from './harness/offline-guard.ts';
import { runPrintMode } from './harness/print-mode.ts';
import { text, toolCall } from './programs/script-parts.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TOOL_TURNS = 3;

interface Sample {
  firstMessageMs: number;
  firstAssistantMs: number;
  perTurnMs: number;
  totalMs: number;
  /** `-p` with one text reply, spawn to exit (a separate process and fake API). */
  printMs: number;
}

async function measure(engine: EngineName): Promise<Sample> {
  const dirs = makeRunDirs();
  writeFileSync(join(dirs.cwd, 'notes.txt'), 'a line\n');
  const read = (n: number) => toolCall(`toolu_read_${n}`, 'Read', { file_path: join(dirs.cwd, 'notes.txt') });
  const api = await startFakeAnthropicApi({ model: [...Array.from({ length: TOOL_TURNS }, (_, n) => read(n)), text('Done.')] });
  try {
    const started = performance.now();
    let firstMessage = 0;
    let firstAssistant = 0;
    let result = 0;
    let turns = 0;
    for await (const message of query({ prompt: 'Read notes.txt three times.', options: engineOptions(engine, api.baseURL, dirs) })) {
      const at = performance.now() - started;
      firstMessage ||= at;
      if (message.type === 'assistant') firstAssistant ||= at;
      if (message.type === 'result') {
        result = at;
        turns = message.num_turns;
        if (message.subtype !== 'success') throw new Error(`${engine}: the run ended ${message.subtype}`);
      }
    }
    if (turns !== TOOL_TURNS + 1) throw new Error(`${engine}: expected ${TOOL_TURNS + 1} turns, got ${turns}`);
    return { firstMessageMs: firstMessage, firstAssistantMs: firstAssistant, perTurnMs: (result - firstAssistant) / TOOL_TURNS, totalMs: result, printMs: await measurePrint(engine) };
  } finally {
    await api.close();
  }
}

async function measurePrint(engine: EngineName): Promise<number> {
  const run = await runPrintMode(engine, { model: [text('Hello.')] }, 'Say hello', 'text');
  if (run.exitCode !== 0 || run.stdout.trim() !== 'Hello.') throw new Error(`${engine} -p: exit ${run.exitCode}, stdout ${JSON.stringify(run.stdout)}, stderr ${run.stderr}`);
  return run.wallMs;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

assertLoopbackOnly();
const startLoad = (await import('node:os')).loadavg()[0];
const samples: Record<EngineName, Sample[]> = { claude: [], turnloop: [] };
await measure('turnloop'); // warm the file cache for both (not counted)
await measure('claude');
for (let i = 0; i < RUNS; i++) for (const engine of ENGINES) samples[engine].push(await measure(engine));

const row = (label: string, key: keyof Sample) => {
  const [c, t] = ENGINES.map((engine) => median(samples[engine].map((s) => s[key])));
  const spread = (engine: EngineName) => {
    const values = samples[engine].map((s) => s[key]);
    return `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
  };
  return `| ${label} | ${Math.round(c)} ms (${spread('claude')}) | ${Math.round(t)} ms (${spread('turnloop')}) | ${(c / t).toFixed(1)}x |`;
};

const { loadavg, cpus } = await import('node:os');
// As agentSdkOptions() starts it (docs/agent-sdk.md, "A faster start").
const startedFrom = engineOptions('turnloop', '', { cwd: '', configDir: '' }).executableArgs ? 'started from its start-up snapshot' : '(no start-up snapshot for this Node)';
console.log(`### The Agent SDK through claude and through turnloop (offline, median of ${RUNS} runs)

SDK 0.3.334, claude 2.1.334 (native), turnloop from dist/ ${startedFrom}; one fake API on 127.0.0.1 per run; script: ${TOOL_TURNS} Read
calls then a text answer (${TOOL_TURNS + 1} model turns). ${cpus().length} cores, load ${startLoad.toFixed(2)} at the start,
${loadavg()[0].toFixed(2)} at the end. Medians, with the range of the runs in brackets.

| measure | claude | turnloop | claude / turnloop |
|---|---|---|---|
${row('query() to the first SDK message (system/init)', 'firstMessageMs')}
${row('query() to the first assistant message', 'firstAssistantMs')}
${row('per model turn after the first (tool + request + reply)', 'perTurnMs')}
${row('query() to the result', 'totalMs')}
${row('`-p` with one text reply, spawn to exit (no SDK)', 'printMs')}`);
