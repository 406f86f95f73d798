/**
 * The `fetch` the headless mode gives the model client (`createAnthropicModelCaller({ fetch })` in
 * src/agent-sdk/headless-main.ts; a library run keeps Node's): a request over node:http or node:https answered as a
 * `Response`. Node's own `fetch` (undici) costs a fresh process about 13 ms of CPU more on its first
 * request (its HTTP parser is WASM, compiled at the first call) and about 5 ms more on each of the next few, while
 * its code warms up; a headless run makes a handful of requests, so that was a large part of its start-up.
 *
 * Invariants (what a caller of Node's fetch would see, so the SDK's retries, errors and aborts work unchanged):
 * - The request carries the headers fetch adds when absent (`accept`, `accept-language`, `sec-fetch-mode`,
 *   `user-agent`, `accept-encoding: gzip, deflate`), and a gzip, deflate or br body is decoded.
 * - A request that cannot be made rejects with `TypeError('fetch failed')` whose `cause` is the socket's error; a
 *   port the Fetch standard blocks is refused the same way without connecting (cause `bad port`).
 * - An aborted signal rejects with its reason before the response, and errors the body's stream after it; a body
 *   cut short errors its stream with `TypeError('terminated')`. The body streams as it arrives (SSE).
 * - What this does not cover goes to Node's fetch as it was: a `Request` or a non-HTTP URL, a body other than
 *   bytes or text, an init option other than method, headers, body and signal, and a redirect (the request is sent
 *   again through fetch, which follows it as the standard says).
 */
import http, { type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { badPort, bodyTerminated, connectionClosed, fetchFailed } from '../errors/fetch-errors.ts';
import { FetchHeaders, type FetchHeadersInit } from './fetch-headers.ts';
import { FetchResponse } from './fetch-response.ts';

/** The Fetch standard's blocked ports (the same list Node's fetch refuses). */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111,
  113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548,
  554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665,
  6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Headers Node's fetch adds to a request that has none of its own of that name. */
const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

const HANDLED_INIT = new Set(['method', 'headers', 'body', 'signal']);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** `fetch` over node:http / node:https (see the invariants above). */
export const nodeHttpFetch: typeof fetch = async (input, init = {}) => {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init.body;
  const handled =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer) &&
    Object.keys(init).every((key) => HANDLED_INIT.has(key));
  if (!handled) return fetch(input, init);
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) throw fetchFailed(badPort());
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const response = await send(url, init, signal);
  if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && response.headers.location !== undefined) {
    response.destroy();
    return fetch(input, init);
  }
  return toResponse(url, init.method ?? 'GET', response, signal);
};

function requestHeaders(init: RequestInit): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of new FetchHeaders(init.headers as FetchHeadersInit | undefined)) headers[name] = value;
  for (const [name, value] of Object.entries(FETCH_DEFAULT_HEADERS)) headers[name] ??= value;
  return headers;
}

async function send(url: URL, init: RequestInit, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  const { request } = url.protocol === 'https:' ? await import('node:https') : http;
  const bytes = typeof init.body === 'string' ? Buffer.from(init.body) : init.body instanceof ArrayBuffer ? new Uint8Array(init.body) : (init.body ?? undefined);
  return new Promise((resolve, reject) => {
    // Aborted while node:https was loading: a listener added now would never be called.
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const req = request(url, { method: (init.method ?? 'GET').toUpperCase(), headers: requestHeaders(init) });
    const onAbort = () => {
      reject(signal!.reason);
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (response) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(response);
    });
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : fetchFailed(error));
    });
    req.end(bytes);
  });
}

async function decoded(response: IncomingMessage): Promise<Readable> {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'deflate' && encoding !== 'br') return response;
  const zlib = await import('node:zlib');
  const decoder = encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
  response.on('error', (error) => decoder.destroy(error));
  // A body that does not decode: the connection is dropped, not left holding an unread response.
  decoder.on('error', () => response.destroy());
  return response.pipe(decoder);
}

async function toResponse(url: URL, method: string, response: IncomingMessage, signal: AbortSignal | undefined): Promise<Response> {
  const status = response.statusCode ?? 0;
  const headers = new FetchHeaders();
  for (let i = 0; i < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i], response.rawHeaders[i + 1]);
  const init = { status, statusText: response.statusMessage ?? '', headers, url: url.href };
  if (NULL_BODY_STATUSES.has(status) || method.toUpperCase() === 'HEAD') {
    response.resume();
    return new FetchResponse(null, init) as unknown as Response;
  }
  return new FetchResponse(webBody(await decoded(response), response, signal), init) as unknown as Response;
}

/** The body as a web stream that reads `source` as the consumer pulls (backpressure), ends or errors with it. */
function webBody(source: Readable, response: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let settled = false;
  let settle: (error?: unknown) => void = () => {};
  const onAbort = () => {
    settle(signal!.reason);
    response.destroy();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      settle = (error) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) controller.close();
        else controller.error(error);
      };
      // Aborted while the response was being set up (a decoder loading): the body fails at once.
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      source.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.once('end', () => settle());
      // `on`, not `once`: a socket may report more than one error, and one without a listener would be thrown.
      source.on('error', (error) => settle(signal?.aborted ? signal.reason : bodyTerminated(error)));
      // Closed with neither its end nor an error: the connection went before the body was complete.
      source.once('close', () => settle(bodyTerminated(connectionClosed())));
      source.pause();
    },
    pull() {
      source.resume();
    },
    cancel() {
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      response.destroy();
    },
  });
}
