/**
 * Systems 2-4: turnloop's `query()` without and with session recording, and the pure `step()` fold of a recorded
 * log. All three run the same config (`BENCH_CONFIG`).
 *
 * Config: the defaults, except `sessionId` and `limits.maxModelCalls` (the default cap of 1,000 model calls would
 * end the 1,000-turn run one call early). No default feature touches the disk in this workload: the only one that
 * can, the tool-result budget, writes a result to `.turnloop/sessions` only when it is over 50,000 characters,
 * and echo answers with ten. `run.ts` checks afterwards that no such directory appeared.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { LoopConfig } from '../../src/config/config.ts';
import { resolveConfig } from '../../dist/config/config.js';
import type { ModelCaller, ModelStreamItem } from '../../src/data/deps.ts';
import { runLoopToEnd as runQuery } from '../../dist/drivers/run-loop.js';
import { defineTool } from '../../dist/tools/index.js';
import type { AssistantMessage, Message } from '../../src/messages/types.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { sharedChartPaths } from '../../dist/runtime/chart-paths.js';
import { createStepper } from '../../dist/reducer/stepper.js';
import type { LoopParams, LoopState } from '../../src/data/state.ts';
import { parseSessionLogText } from '../../dist/replay/parse-session-log.js';
import { createSessionRecorder } from '../../dist/replay/session-recorder.js';
import { echo, PROMPT, prefilledHistory, TurnProbe, type RunSpec, type System } from '../workload.ts';

export const BENCH_CONFIG: LoopConfig = resolveConfig({ sessionId: 'bench', limits: { maxModelCalls: 1_000_000 } });

const USAGE = { input_tokens: 1_000, output_tokens: 20 };

export const echoTool = defineTool({
  name: 'echo',
  description: 'Answers its text unchanged.',
  inputSchema: z.object({ text: z.string() }),
  isConcurrencySafe: () => true,
  call: (input) => ({ content: echo(input) }),
});

/** The scripted model as a turnloop `ModelCaller`: one `model_message` with one block, then `model_done`. */
export function scriptedCaller(probe: TurnProbe, turns: number): ModelCaller {
  let call = 0;
  return async function* (request): AsyncGenerator<ModelStreamItem> {
    const answer = probe.next(turns);
    call += 1;
    const id = `msg_${call}`;
    const block = answer.kind === 'text'
      ? { type: 'text' as const, text: answer.text }
      : { type: 'tool_use' as const, id: answer.id, name: answer.name, input: answer.input };
    const stopReason = answer.kind === 'text' ? 'end_turn' : 'tool_use';
    const message: AssistantMessage = {
      type: 'assistant',
      uuid: `${id}:0`,
      message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: stopReason, usage: USAGE },
    };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage: USAGE, stopReason } };
  };
}

export function historyMessages(size: number): Message[] {
  return prefilledHistory(size).map((entry, i): Message =>
    entry.role === 'user'
      ? { type: 'user', uuid: `h${i}`, message: { role: 'user', content: entry.text } }
      : { type: 'assistant', uuid: `h${i}`, message: { id: `hmsg_${i}`, role: 'assistant', model: BENCH_CONFIG.model, content: [{ type: 'text', text: entry.text }], stop_reason: 'end_turn' } },
  );
}

export async function runTurnloop(spec: RunSpec, probe: TurnProbe, onStep?: Parameters<typeof runQuery>[0]['onStep']) {
  const { items, terminal } = await runQuery({
    messages: historyMessages(spec.history),
    prompt: PROMPT,
    tools: [echoTool],
    config: BENCH_CONFIG,
    deps: { callModel: scriptedCaller(probe, spec.turns) },
    ...(onStep ? { onStep } : {}),
  });
  if (terminal.reason !== 'completed') throw new Error(`turnloop ended with ${terminal.reason}`);
  return items;
}

export const turnloopQuerySystem: System = {
  name: 'turnloop query(), recording off',
  label: 'turnloop',
  async run(spec, probe) {
    return { retained: await runTurnloop(spec, probe) };
  },
};

const recordDir = mkdtempSync(join(tmpdir(), 'turnloop-bench-'));
let recordCount = 0;

/** Removes the temp directory of the recordings. */
export function cleanUpRecordings(): void {
  rmSync(recordDir, { recursive: true, force: true });
}

export const turnloopRecordingSystem: System = {
  name: 'turnloop query(), recording on (src/replay createSessionRecorder → file)',
  label: 'turnloop+rec',
  async run(spec, probe) {
    const path = join(recordDir, `run-${++recordCount}.jsonl`);
    const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
    try {
      const items = await runTurnloop(spec, probe, recorder);
      if (recorder.error) throw recorder.error;
      return { retained: items };
    } finally {
      recorder.close();
      rmSync(path, { force: true });
    }
  },
};

/** A recorded session, in memory: the log text and what replay needs from it. */
export interface RecordedSession {
  text: string;
  params: LoopParams;
  events: LoopEvent[];
  /** Bytes of each event line, in order. */
  lineBytes: number[];
  headerBytes: number;
}

/**
 * Runs the workload once, recorded to a file as users record (group commit: one hash per commit group, log
 * version 3), and reads the log back.
 */
export async function recordSession(spec: RunSpec, probe: TurnProbe): Promise<RecordedSession> {
  const path = join(recordDir, `session-${++recordCount}.jsonl`);
  const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
  try {
    await runTurnloop(spec, probe, recorder);
    if (recorder.error) throw recorder.error;
  } finally {
    recorder.close();
  }
  const text = readFileSync(path, 'utf8');
  rmSync(path, { force: true });
  const log = parseSessionLogText(text);
  if (log.truncated) throw new Error('the recorded session log ends cut short');
  const [header, ...lines] = text.trimEnd().split('\n');
  return {
    text,
    params: log.header.params,
    events: log.events.map((line) => line.event),
    lineBytes: lines.map((line) => Buffer.byteLength(line) + 1),
    headerBytes: Buffer.byteLength(header) + 1,
  };
}

/**
 * Folds the events of a session through a memoized stepper, as replay does (one per fold, over the chart's paths
 * shared per machine); calls `onModelCall` for every `call_model` effect.
 */
export function foldEvents(session: RecordedSession, onModelCall: () => void): LoopState {
  const { initialState, step } = createStepper({ memo: true, paths: sharedChartPaths() });
  const started = initialState(session.params, BENCH_CONFIG);
  let state = started.state;
  for (const effect of started.effects) if (effect.type === 'call_model') onModelCall();
  for (const event of session.events) {
    const result = step(state, event, BENCH_CONFIG);
    state = result.state;
    for (const effect of result.effects) if (effect.type === 'call_model') onModelCall();
  }
  return state;
}

let recorded: { key: string; session: RecordedSession } | null = null;

export const turnloopFoldSystem: System = {
  name: 'turnloop step() fold of the recorded events',
  label: 'step() fold',
  async before(spec) {
    const key = `${spec.turns}/${spec.history}`;
    if (recorded?.key === key) return;
    recorded = null;
    recorded = { key, session: await recordSession(spec, new TurnProbe()) };
  },
  async run(spec, probe) {
    const session = recorded?.session;
    if (!session) throw new Error('fold: no recorded session');
    const state = foldEvents(session, () => void probe.next(spec.turns));
    if (state.status !== 'done') throw new Error('the folded log did not reach a terminal');
    return { retained: state };
  },
};
