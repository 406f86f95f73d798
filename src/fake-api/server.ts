/**
 * A loopback fake of the Anthropic Messages API (`POST /v1/messages`, streaming SSE) on node:http, bound to
 * 127.0.0.1 on a free port.
 *
 * Invariants:
 * - Every request body is recorded in `requests`, in arrival order, before it is answered.
 * - Routing: a request whose header `x-turnloop-query-source` is `compact` takes the next answer of
 *   `compactionModel`; one whose header `x-turnloop-agent-run` names a child run with a scripted list of its own
 *   (`agentRuns`, or `scriptAgentRun()` while the server runs) takes that list's next answer; every other request
 *   takes the next answer of `model`. The model adapter sends both headers.
 * - Each child run's list has its own prompt cache and message-id counter (`msg_fake_<run>_<n>`), so what a child
 *   is answered never depends on the order in which concurrent children's requests arrive.
 * - Strict, like the real API (and only where it is): a request it would refuse (`validate-request.ts`) gets the
 *   real 400 and takes no scripted answer. So does a request whose input exceeds the model's context window
 *   ("prompt is too long: N tokens > M maximum"); N is the scripted `usage` of the answer it would get, else the
 *   estimate. A scripted error or raw SSE answer is served as scripted, without the window check.
 * - The window and output limits come from the engine's model table (`DEFAULT_CONFIG`, or `options.models`).
 * - Usage reports what the server's prompt cache read and wrote (`prompt-cache.ts`).
 * - When the list a request needs has run out, the answer is a 500 `api_error` and `exhausted` becomes true; with
 *   no `compactionModel` list at all, compaction requests get the default summary, as many as asked.
 * - Streaming requests (`"stream": true`) get SSE; others get the whole message as JSON (`sse-to-message.ts`);
 *   a raw `{sse}` answer is sent as it is either way.
 * - `close()` drops open connections and pending delays, so a test never hangs on a slow scripted answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CONFIG } from '../config/config.ts';
import { AGENT_RUN_HEADER, QUERY_SOURCE_HEADER } from '../config/wire.ts';
import { totalInputTokens } from './estimate-usage.ts';
import { createPromptCache, type PromptCache } from './prompt-cache.ts';
import { encodeSseEvent, replyToSseEvents } from './reply-to-sse.ts';
import {
  DEFAULT_COMPACTION_REPLY,
  FakeScriptError,
  parseFakeScript,
  REAL_ERROR_BODIES,
  type FakeAnswer,
  type FakeAnswerInput,
  type FakeError,
  type FakeReply,
  type FakeScriptInput,
} from './script-schema.ts';
import { sseEventsToMessage } from './sse-to-message.ts';
import { modelInfoFor, validateRequest, type ModelTable, type RuleName } from './validate-request.ts';

export type FakeQueue = 'model' | 'compactionModel';

/** One received request, with what it was routed to. */
export interface FakeRequestRecord {
  queue: FakeQueue;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The child run it came from (its `x-turnloop-agent-run` key), when that run has a list of its own. */
  agentRun?: string;
  /** Set when the request was refused as the real API would refuse it (it took no scripted answer). */
  rejected?: { rule: RuleName | 'context_window'; message: string };
  /** Set when the list it needed had run out (it was answered 500). */
  exhausted?: true;
}

/** A child run's own answers, prompt cache and count of answers served. */
interface AgentRunLane {
  answers: FakeAnswer[];
  cache: PromptCache;
  served: number;
}

export interface FakeApiOptions {
  /** The model table the limits come from (default: the engine's `DEFAULT_CONFIG`). */
  models?: Partial<ModelTable>;
}

export interface FakeApi {
  /** e.g. `http://127.0.0.1:54321` (give it to the SDK as `baseURL`). */
  baseURL: string;
  /** Every received JSON body, in order. */
  requests: unknown[];
  /** Every received request with its routing and headers, in order. */
  log: FakeRequestRecord[];
  /** Requests for anything but `POST /v1/messages` (answered 404), in order: what a client asked that no script serves. */
  unrouted: Array<{ method: string; path: string }>;
  /** Answers not yet served, both lists together. */
  remaining(): number;
  /** True once a request found its list empty. */
  readonly exhausted: boolean;
  /** Requests refused as the real API would refuse them. */
  rejections(): FakeRequestRecord[];
  /**
   * Gives the child run `key` (`agentRunKey(toolUseIds)`) its own list of answers (validated; throws
   * `FakeScriptError`). Script it before the run's first request; a key scripted twice is an error.
   */
  scriptAgentRun(key: string, answers: FakeAnswerInput[]): void;
  close(): Promise<void>;
}

/** Starts the fake API; the script is validated first (throws `FakeScriptError`). */
export async function startFakeAnthropicApi(script: FakeScriptInput, options: FakeApiOptions = {}): Promise<FakeApi> {
  const parsed = parseFakeScript(script);
  const queues: Record<FakeQueue, FakeAnswer[]> = { model: [...parsed.model], compactionModel: [...(parsed.compactionModel ?? [])] };
  const agentRuns = new Map<string, AgentRunLane>();
  const addAgentRun = (key: string, answers: FakeAnswer[]) => {
    if (agentRuns.has(key)) throw new FakeScriptError([{ path: `agentRuns.${key}`, message: 'this agent run is scripted twice; script each run once' }]);
    agentRuns.set(key, { answers: [...answers], cache: createPromptCache(), served: 0 });
  };
  for (const [key, answers] of Object.entries(parsed.agentRuns ?? {})) addAgentRun(key, answers);
  // No list at all (not an empty one): every compaction request gets the default summary.
  const defaultCompaction = parsed.compactionModel === undefined ? parseFakeScript({ model: [DEFAULT_COMPACTION_REPLY] }).model[0] : undefined;
  const listOf = (queue: FakeQueue, lane: AgentRunLane | undefined) => (lane && queue === 'model' ? lane.answers : queues[queue]);
  const nextAnswer = (queue: FakeQueue, lane?: AgentRunLane) => listOf(queue, lane)[0] ?? (queue === 'compactionModel' ? defaultCompaction : undefined);
  const table: ModelTable = {
    models: options.models?.models ?? DEFAULT_CONFIG.models,
    defaultModelInfo: options.models?.defaultModelInfo ?? DEFAULT_CONFIG.defaultModelInfo,
  };
  const cache = createPromptCache();
  const requests: unknown[] = [];
  const log: FakeRequestRecord[] = [];
  const unrouted: FakeApi['unrouted'] = [];
  const timers = new Set<NodeJS.Timeout>();
  let exhausted = false;
  let served = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages') {
      unrouted.push({ method: req.method ?? '', path });
      return sendError(res, { status: 404, error: { type: 'not_found_error', message: `no route ${req.method} ${path}` } });
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendError(res, { status: 400, error: { type: 'invalid_request_error', message: 'request body is not JSON' } });
    }
    const queue: FakeQueue = req.headers[QUERY_SOURCE_HEADER] === 'compact' ? 'compactionModel' : 'model';
    const header = req.headers[AGENT_RUN_HEADER];
    const runKey = typeof header === 'string' && agentRuns.has(header) ? header : undefined;
    const lane = queue === 'model' && runKey !== undefined ? agentRuns.get(runKey) : undefined;
    requests.push(body);
    const record: FakeRequestRecord = { queue, path, headers: { ...req.headers }, body, ...(runKey === undefined ? {} : { agentRun: runKey }) };
    log.push(record);
    const rejection = validateRequest(body, table) ?? windowRejection(nextAnswer(queue, lane), body);
    if (rejection) {
      record.rejected = rejection;
      return sendError(res, { status: 400, error: { type: 'invalid_request_error', message: rejection.message } });
    }
    const answer = nextAnswer(queue, lane);
    listOf(queue, lane).shift();
    if (!answer) {
      exhausted = true;
      record.exhausted = true;
      const list = lane ? `"model" of agent run ${runKey}` : `"${queue}"`;
      return sendError(res, { status: 500, error: { type: 'api_error', message: `fake API script exhausted: no answer left in ${list}` } });
    }
    if (lane) return serve(res, answer, body, `${runKey}_${++lane.served}`, lane.cache);
    served += 1;
    return serve(res, answer, body, String(served), cache);
  }

  async function serve(res: ServerResponse, answer: FakeAnswer, body: unknown, n: string, cache: PromptCache): Promise<void> {
    if (answer.delayMs) await wait(answer.delayMs);
    if (res.destroyed) return;
    if ('sse' in answer) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', 'request-id': `req_fake_${n}` });
      res.end(answer.sse);
    } else if (!('content' in answer)) {
      sendError(res, answer);
    } else if ((body as { stream?: unknown }).stream !== true) {
      // Non-streaming: the whole message at once (`cut_after_events` only cuts streams).
      const events = replyToSseEvents(answer, { requestBody: body, messageId: `msg_fake_${n}`, model: modelOf(body) || 'fake-model' });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${n}` });
      res.end(JSON.stringify(sseEventsToMessage(events)));
    } else {
      await sendReply(res, answer, body, n, cache);
    }
  }

  /** The real 400 for a prompt over the model's window; a scripted error or raw SSE answer is served instead. */
  function windowRejection(next: FakeAnswer | undefined, body: unknown): { rule: 'context_window'; message: string } | null {
    if (next !== undefined && !('content' in next)) return null;
    const window = modelInfoFor(table, modelOf(body)).contextWindow;
    const tokens = totalInputTokens(next as FakeReply | undefined, body);
    return tokens > window ? { rule: 'context_window', message: `prompt is too long: ${tokens} tokens > ${window} maximum` } : null;
  }

  async function sendReply(res: ServerResponse, reply: FakeReply, body: unknown, n: string, cache: PromptCache): Promise<void> {
    const model = modelOf(body) || 'fake-model';
    const cacheUsage = reply.usage?.input_tokens === undefined ? cache.use(body, totalInputTokens(reply, body)) : undefined;
    const events = replyToSseEvents(reply, { requestBody: body, messageId: `msg_fake_${n}`, model, ...(cacheUsage ? { cache: cacheUsage } : {}) });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}` });
    res.flushHeaders();
    for (const [index, event] of events.entries()) {
      if (res.destroyed) return;
      if (reply.cut_after_events !== undefined && index >= reply.cut_after_events) break;
      await new Promise<void>((resolve) => res.write(encodeSseEvent(event), () => resolve()));
      if (reply.eventDelayMs) await wait(reply.eventDelayMs);
    }
    if (reply.cut_after_events !== undefined && reply.cut_after_events < events.length) {
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, { status: 500, error: { type: 'api_error', message: String(error) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    log,
    unrouted,
    remaining: () => queues.model.length + queues.compactionModel.length + [...agentRuns.values()].reduce((sum, lane) => sum + lane.answers.length, 0),
    get exhausted() {
      return exhausted;
    },
    rejections: () => log.filter((entry) => entry.rejected !== undefined),
    scriptAgentRun: (key, answers) => addAgentRun(key, parseFakeScript({ model: answers }, `agent run ${key}`).model),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : '';
}

/** The API's JSON error body `{type: 'error', error: {type, message}}`, with the real defaults for its status. */
function sendError(res: ServerResponse, answer: Pick<FakeError, 'status' | 'error' | 'headers'>): void {
  if (res.destroyed) return;
  const error = answer.error ?? REAL_ERROR_BODIES[answer.status] ?? { type: 'api_error', message: `HTTP ${answer.status}` };
  const headers = answer.headers ?? (answer.status === 429 ? rateLimitHeaders() : {});
  res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake_error', ...headers });
  res.end(JSON.stringify({ type: 'error', error }));
}

/** The headers of a real 429: wait a second; the per-minute input-token bucket is empty. */
function rateLimitHeaders(): Record<string, string> {
  const reset = new Date(Date.now() + 1_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'retry-after': '1',
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': '49',
    'anthropic-ratelimit-requests-reset': reset,
    'anthropic-ratelimit-input-tokens-limit': '40000',
    'anthropic-ratelimit-input-tokens-remaining': '0',
    'anthropic-ratelimit-input-tokens-reset': reset,
    'anthropic-ratelimit-output-tokens-limit': '8000',
    'anthropic-ratelimit-output-tokens-remaining': '8000',
    'anthropic-ratelimit-output-tokens-reset': reset,
    'anthropic-ratelimit-tokens-limit': '48000',
    'anthropic-ratelimit-tokens-remaining': '8000',
    'anthropic-ratelimit-tokens-reset': reset,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
