/**
 * The real request path: turnloop's `query()` with the production model caller (`createAnthropicModelCaller`, the
 * official `@anthropic-ai/sdk` client) against the loopback fake Anthropic API (`src/fake-api`, in this process),
 * the same workload as the other systems (one `echo` tool call per turn, then a text reply), at H=10 and H=10,000,
 * with a user context (`USER_CONTEXT`), as Claude Code always sends one: the reducer puts it first in every request
 * (one message, built once per run), and with the default config's prompt caching (breakpoints on the system
 * prompt and the last message).
 *
 * Measured per size, interleaved over rounds:
 * - per-turn time (the gap between consecutive model calls, as everywhere else), which here includes the SDK's
 *   JSON serialisation of the whole request, HTTP over loopback, the fake API parsing the body and streaming its
 *   SSE answer, and the SDK parsing that stream: the wire carries the whole history on every call, by the API's
 *   design, so this part grows with the history whatever the engine does;
 * - request building alone (history → API messages, system, tools, headers: `buildApiRequest`), timed on the very
 *   requests of a run, replayed in order with each call's own options: with the caller's incremental converter
 *   (what the adapter uses) and with the full conversion, µs per call.
 */
import type { ModelCaller, ModelCallOptions } from '../src/data/deps.ts';
import { buildApiRequest } from '../dist/model/build-request.js';
import { createApiMessageConverter } from '../dist/model/incremental-api-messages.js';
import { createAnthropicModelCaller } from '../dist/model/index.js';
import { runLoopToEnd } from '../dist/drivers/run-loop.js';
import { startFakeAnthropicApi } from '../dist/fake-api/index.js';
import type { ModelRequest } from '../src/data/effects.ts';
import { median } from './stats.ts';
import { BENCH_CONFIG, echoTool, historyMessages } from './systems/turnloop.ts';
import { PROMPT, scriptedAnswer } from './workload.ts';

export interface RequestPathCell {
  history: number;
  rounds: number;
  medianTurnMicros: number;
  /** `buildApiRequest` per call, µs (median over the calls of all rounds). */
  buildIncrementalMicros: number;
  buildFullMicros: number;
  /** Bytes of the last request body (JSON). */
  bodyBytes: number;
}

const TURNS = 10;

/** What Claude Code puts in every request's first message (CLAUDE.md, the date), abridged. */
const USER_CONTEXT = { claudeMd: 'Contents of /repo/CLAUDE.md (project instructions):\n\nRun the tests before every commit.', currentDate: "Today's date is 2026-12-01." };

/** The usage every answer reports, as the in-process model does (the fake's own estimate of a 10,000-message
 * history would cross the autocompact threshold, and this workload is not about compaction). */
const USAGE = { input_tokens: 1_000, output_tokens: 20 };

function fakeScript() {
  const model = [];
  for (let call = 1; call <= TURNS + 1; call++) {
    const answer = scriptedAnswer(call, TURNS);
    model.push(answer.kind === 'text'
      ? { content: [{ type: 'text' as const, text: answer.text }], usage: USAGE }
      : { content: [{ type: 'tool_use' as const, id: answer.id, name: answer.name, input: answer.input }], usage: USAGE });
  }
  return { model };
}

async function runOnce(history: number) {
  const api = await startFakeAnthropicApi(fakeScript());
  try {
    const real = createAnthropicModelCaller({ baseURL: api.baseURL, apiKey: 'bench-not-a-key' });
    const callTimes: number[] = [];
    const calls: Array<{ request: ModelRequest; options: ModelCallOptions }> = [];
    const timed: ModelCaller = (request, options) => {
      callTimes.push(performance.now());
      calls.push({ request, options });
      return real(request, options);
    };
    const { terminal } = await runLoopToEnd({
      messages: historyMessages(history),
      prompt: PROMPT,
      userContext: USER_CONTEXT,
      tools: [echoTool],
      config: BENCH_CONFIG,
      deps: { callModel: timed },
    });
    if (terminal.reason !== 'completed') throw new Error(`request path: the run ended with ${terminal.reason}`);
    if (calls.length !== TURNS + 1) throw new Error(`request path: expected ${TURNS + 1} model calls, saw ${calls.length}`);
    const turnMicros = callTimes.slice(1).map((t, i) => (t - callTimes[i]) * 1000);
    const bodyBytes = Buffer.byteLength(JSON.stringify(api.requests[api.requests.length - 1]));
    return { turnMicros, calls, bodyBytes };
  } finally {
    await api.close();
  }
}

/**
 * µs per `buildApiRequest` call over the run's requests in order, with or without a converter, given the call's
 * own options as the adapter passes them (prompt caching, the run token, thinking...).
 */
function timeBuilding(calls: Array<{ request: ModelRequest; options: ModelCallOptions }>, incremental: boolean): number[] {
  const toMessages = incremental ? createApiMessageConverter() : undefined;
  return calls.map(({ request, options }) => {
    const buildOptions = { ...options, ...(toMessages ? { toMessages } : {}) };
    const started = performance.now();
    buildApiRequest(request, buildOptions);
    return (performance.now() - started) * 1000;
  });
}

export async function measureRequestPath(rounds: number): Promise<RequestPathCell[]> {
  const histories = [10, 10_000];
  const samples = new Map<number, { turns: number[]; incremental: number[]; full: number[]; bodyBytes: number }>();
  await runOnce(10);
  for (let round = 0; round < rounds; round++) {
    for (const history of round % 2 === 0 ? histories : [...histories].reverse()) {
      const run = await runOnce(history);
      const cell = samples.get(history) ?? { turns: [], incremental: [], full: [], bodyBytes: 0 };
      cell.turns.push(...run.turnMicros);
      // The first call converts everything either way; the later ones are what a turn pays.
      cell.incremental.push(...timeBuilding(run.calls, true).slice(1));
      cell.full.push(...timeBuilding(run.calls, false).slice(1));
      cell.bodyBytes = run.bodyBytes;
      samples.set(history, cell);
    }
  }
  return histories.map((history) => {
    const cell = samples.get(history)!;
    return {
      history,
      rounds,
      medianTurnMicros: median(cell.turns),
      buildIncrementalMicros: median(cell.incremental),
      buildFullMicros: median(cell.full),
      bodyBytes: cell.bodyBytes,
    };
  });
}
