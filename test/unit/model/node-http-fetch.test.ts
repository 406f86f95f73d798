/**
 * The model client's `fetch` over node:http (src/model/node-http-fetch.ts) against Node's own `fetch`, on one
 * loopback server: what goes on the wire, what the Response says, the body streaming as it arrives, decoding,
 * redirects, aborts before and during the body, a refused connection, a blocked port and a body cut short. Each
 * case runs both and compares (the model tests in this folder run the whole client over it too).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../../src/model/node-http-fetch.ts';

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const seen: Seen[] = [];
/** Lets the streaming route send the rest of its body. */
let releaseStream: () => void = () => {};
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/json': (_req, res) => res.writeHead(529, 'Overloaded', { 'content-type': 'application/json', 'request-id': 'req_1' }).end('{"type":"error"}'),
  '/sse': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: one\ndata: {}\n\n');
    releaseStream = () => res.end('event: two\ndata: {}\n\n');
  },
  '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('decoded text')),
  '/empty': (_req, res) => res.writeHead(204).end(),
  '/redirect': (_req, res) => res.writeHead(307, { location: '/json' }).end(),
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/hang': (_req, res) => res.writeHead(200).write('first'),
};
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
    (routes[req.url!] ?? routes['/json'])(req, res);
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const BOTH = [['fetch', fetch], ['nodeHttpFetch', nodeHttpFetch]] as const;
const POST = { method: 'post', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: '{"model":"m"}' };

async function failureOf(promise: Promise<unknown>): Promise<{ name: string; message: string; cause?: { message?: string; code?: string } }> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught as Error & { cause?: { message?: string; code?: string } });
  if (error === undefined) throw new Error('expected a failure');
  return { name: error.name, message: error.message, ...(error.cause ? { cause: { message: error.cause.message, code: error.cause.code } } : {}) };
}

describe('nodeHttpFetch, beside Node fetch', () => {
  it('sends the same request: method, path, body and headers (with the ones fetch adds)', async () => {
    const requests = [];
    for (const [, impl] of BOTH) {
      seen.length = 0;
      await (await impl(`${base}/json`, POST)).text();
      requests.push(seen[0]);
    }
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[1].headers).toMatchObject({ 'x-api-key': 'k', accept: '*/*', 'accept-encoding': 'gzip, deflate', 'content-length': '13' });
  });

  it('answers with the same status, status text, headers, url and body', async () => {
    const answers = [];
    for (const [, impl] of BOTH) {
      const response = await impl(`${base}/json`, POST);
      const { 'keep-alive': _, date: __, ...headers } = Object.fromEntries(response.headers);
      answers.push({ status: response.status, ok: response.ok, statusText: response.statusText, url: response.url, headers, body: await response.text() });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]).toMatchObject({ status: 529, ok: false, statusText: 'Overloaded', body: '{"type":"error"}', url: `${base}/json` });
  });

  it.each(BOTH)('%s: streams the body as it arrives (the first event before the server ends)', async (_name, impl) => {
    const reader = (await impl(`${base}/sse`, POST)).body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('event: one\ndata: {}\n\n');
    releaseStream();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('event: two\ndata: {}\n\n');
  });

  it.each(BOTH)('%s: decodes a gzip body; a 204 has no body; a 307 is followed', async (_name, impl) => {
    expect(await (await impl(`${base}/gzip`)).text()).toBe('decoded text');
    expect((await impl(`${base}/empty`)).body).toBeNull();
    const redirected = await impl(`${base}/redirect`, POST);
    expect([redirected.status, await redirected.text()]).toEqual([529, '{"type":"error"}']);
  });

  it('rejects an aborted request with the signal\'s reason, before and during the body, as fetch does', async () => {
    const outcomes = [];
    for (const [, impl] of BOTH) {
      const before = await failureOf(impl(`${base}/json`, { ...POST, signal: AbortSignal.abort() }));
      const controller = new AbortController();
      const reader = (await impl(`${base}/hang`, { ...POST, signal: controller.signal })).body!.getReader();
      await reader.read();
      const pending = reader.read();
      controller.abort();
      outcomes.push({ before, during: await failureOf(pending) });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[1].during.name).toBe('AbortError');
  });

  it('fails a refused connection, a blocked port and a body cut short with fetch\'s errors', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const outcomes = [];
    for (const [, impl] of BOTH) {
      const refused = await failureOf(impl(`http://127.0.0.1:${closedPort}/v1/messages`, POST));
      const blocked = await failureOf(impl('http://127.0.0.1:9/v1/messages', POST));
      const cut = await failureOf((await impl(`${base}/cut`)).text());
      outcomes.push({ refused, blocked, cut: { name: cut.name, message: cut.message } });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[1]).toMatchObject({
      refused: { name: 'TypeError', message: 'fetch failed', cause: { code: 'ECONNREFUSED' } },
      blocked: { message: 'fetch failed', cause: { message: 'bad port' } },
      cut: { name: 'TypeError', message: 'terminated' },
    });
  });
});

describe('nodeHttpFetch alone (no counterpart in Node\'s fetch to compare with)', () => {
  it('rejects at once when aborted while node:https loads, instead of waiting on a server that never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const controller = new AbortController();
      const pending = nodeHttpFetch(`https://127.0.0.1:${port}/`, { signal: controller.signal });
      controller.abort(new Error('stopped'));
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 5 s'), 5_000)));
      const outcome = await Promise.race([pending.then(() => 'answered', (error: Error) => error.message), hung]);
      clearTimeout(timer);
      expect(outcome).toBe('stopped');
    } finally {
      silent.close();
    }
  });

  it('drops the connection of a body that does not decode', async () => {
    let closed: () => void = () => undefined;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const bad = http.createServer((_req, res) => {
      res.socket?.once('close', () => closed());
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': '2048' }).write(Buffer.alloc(1024, 7));
    });
    await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = bad.address() as { port: number };
      const response = await nodeHttpFetch(`http://127.0.0.1:${port}/`);
      await expect(response.text()).rejects.toThrow('terminated');
      let timer: NodeJS.Timeout | undefined;
      const open = new Promise((resolve) => (timer = setTimeout(() => resolve('open after 5 s'), 5_000)));
      expect(await Promise.race([socketClosed.then(() => 'closed'), open])).toBe('closed');
      clearTimeout(timer);
    } finally {
      bad.closeAllConnections();
      bad.close();
    }
  });
});
