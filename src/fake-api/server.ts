/**
 * A loopback fake of the Anthropic Messages API (`POST /v1/messages`, streaming SSE) on node:http, bound to
 * 127.0.0.1 on a free port.
 *
 * Invariants:
 * - Every request body is recorded in `requests`, in arrival order, before it is answered.
 * - Routing: a request whose header `x-turnloop-query-source` is `compact` takes the next answer of
 *   `compactionModel`; every other request takes the next answer of `model`. The model adapter sends that header.
 * - When the list a request needs has run out, the answer is a 500 `api_error` and `exhausted` becomes true.
 * - Streaming requests (`"stream": true`) get SSE; others get the whole message as JSON (`sse-to-message.ts`);
 *   a raw `{sse}` answer is sent as it is either way.
 * - `close()` drops open connections and pending delays, so a test never hangs on a slow scripted answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUERY_SOURCE_HEADER } from '../config/wire.ts';
import { encodeSseEvent, replyToSseEvents } from './reply-to-sse.ts';
import { sseEventsToMessage } from './sse-to-message.ts';
import { parseFakeScript, type FakeAnswer, type FakeError, type FakeReply, type FakeScriptInput } from './script-schema.ts';

export type FakeQueue = 'model' | 'compactionModel';

/** One received request, with what it was routed to. */
export interface FakeRequestRecord {
  queue: FakeQueue;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FakeApi {
  /** e.g. `http://127.0.0.1:54321` (give it to the SDK as `baseURL`). */
  baseURL: string;
  /** Every received JSON body, in order. */
  requests: unknown[];
  /** Every received request with its routing and headers, in order. */
  log: FakeRequestRecord[];
  /** Answers not yet served, both lists together. */
  remaining(): number;
  /** True once a request found its list empty. */
  readonly exhausted: boolean;
  close(): Promise<void>;
}

/** Starts the fake API; the script is validated first (throws `FakeScriptError`). */
export async function startFakeAnthropicApi(script: FakeScriptInput): Promise<FakeApi> {
  const parsed = parseFakeScript(script);
  const queues: Record<FakeQueue, FakeAnswer[]> = { model: [...parsed.model], compactionModel: [...parsed.compactionModel] };
  const requests: unknown[] = [];
  const log: FakeRequestRecord[] = [];
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
    requests.push(body);
    log.push({ queue, path, headers: { ...req.headers }, body });
    const answer = queues[queue].shift();
    if (!answer) {
      exhausted = true;
      return sendError(res, { status: 500, error: { type: 'api_error', message: `fake API script exhausted: no answer left in "${queue}"` } });
    }
    served += 1;
    if (answer.delayMs) await wait(answer.delayMs);
    if (res.destroyed) return;
    if ('sse' in answer) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', 'request-id': `req_fake_${served}` });
      res.end(answer.sse);
    } else if ('error' in answer) {
      sendError(res, answer);
    } else if ((body as { stream?: unknown }).stream !== true) {
      // Non-streaming: the whole message at once (`cut_after_events` only cuts streams).
      const events = replyToSseEvents(answer, { requestBody: body, messageId: `msg_fake_${served}`, model: modelOf(body) });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${served}` });
      res.end(JSON.stringify(sseEventsToMessage(events)));
    } else {
      await sendReply(res, answer, body, served);
    }
  }

  async function sendReply(res: ServerResponse, reply: FakeReply, body: unknown, n: number): Promise<void> {
    const events = replyToSseEvents(reply, { requestBody: body, messageId: `msg_fake_${n}`, model: modelOf(body) });
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
    remaining: () => queues.model.length + queues.compactionModel.length,
    get exhausted() {
      return exhausted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The API's JSON error body: `{type: 'error', error: {type, message}}`. */
function sendError(res: ServerResponse, answer: Pick<FakeError, 'status' | 'error' | 'headers'>): void {
  if (res.destroyed) return;
  res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake_error', ...answer.headers });
  res.end(JSON.stringify({ type: 'error', error: answer.error }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown }).model;
  return typeof model === 'string' ? model : 'fake-model';
}
