/**
 * The live inspector against a real run: a scenario simulated through the loopback fake API, watched over HTTP
 * and Server-Sent Events, held at breakpoints, stepped, aborted, and refused to strangers.
 */
import { request } from 'node:http';
import { pairingViolations, toolUseIds } from '../../property/checks.ts';
import { portIsClosed } from '../../helpers/refusing-port.ts';
import { describe, expect, it } from 'vitest';
import { startInspector, type Inspector } from '../../../src/inspector/inspector.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import type { FakeApi } from '../../../src/fake-api/index.ts';
import { replay } from '../../../src/replay/index.ts';

/** Two tool rounds (so two model calls before the answer), each tool taking a little real time. */
function twoToolRounds() {
  return parseScenario(
    {
      name: 'inspected',
      params: { prompt: 'look twice' },
      tools: [{ name: 'Look', readOnly: true, concurrencySafe: true, results: [{ content: 'one', delayMs: 30 }, { content: 'two', delayMs: 30 }] }],
      model: [
        { content: [{ type: 'tool_use', name: 'Look', input: {} }] },
        { content: [{ type: 'tool_use', name: 'Look', input: {} }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    },
    'inspected.json',
  );
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function post(inspector: Inspector, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${inspector.port}${path}?token=${inspector.token}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function modelRequests(api: FakeApi | null): number {
  return api ? api.requests.length : 0;
}

describe('live inspector', () => {
  it('refuses a wrong token, a foreign Host and a foreign Origin, and serves the page with its CSP', async () => {
    const inspector = await startInspector({ keep: true });
    try {
      const base = `http://127.0.0.1:${inspector.port}`;
      expect((await get(`${base}/`)).status).toBe(403);
      expect((await get(`${base}/?token=${'x'.repeat(inspector.token.length)}`)).status).toBe(403);
      expect((await get(inspector.url, { host: `evil.example:${inspector.port}` })).status).toBe(403);
      expect((await get(inspector.url, { origin: 'http://evil.example' })).status).toBe(403);
      const page = await get(inspector.url);
      expect(page.status).toBe(200);
      expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(page.body).toMatch(/http-equiv="Content-Security-Policy" content="default-src (&#39;|')none(&#39;|')/);
      expect(page.body).toMatch(/connect-src (&#39;|')self(&#39;|')/);
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
      const sameOrigin = await get(inspector.url, { origin: `http://127.0.0.1:${inspector.port}` });
      expect(sameOrigin.status).toBe(200);
      expect(inspector.url.startsWith('http://127.0.0.1:')).toBe(true);
    } finally {
      await inspector.close();
    }
  });

  it('holds the run before the second model call until stepped; no request reaches the API meanwhile', async () => {
    const inspector = await startInspector();
    let api: FakeApi | null = null;
    const run = simulateScenario(twoToolRounds(), { observers: [inspector.attach('main')], onFakeApi: (a) => (api = a) });
    const session = () => inspector.session()!;
    await until(() => modelRequests(api) === 1 && session() !== undefined, 'the first model request');
    inspector.setBreakpoints([{ kind: 'model_call' }]);
    await until(() => session().control.status().mode === 'paused', 'the hold before the second call');
    await new Promise((r) => setTimeout(r, 150));
    expect(modelRequests(api)).toBe(1);
    expect(session().control.status().heldBecause).toBe('before each model call');

    const stepped = await post(inspector, `/api/sessions/${session().id}/control`, { action: 'step' });
    expect(stepped.status).toBe(200);
    await until(() => modelRequests(api) === 2, 'the second model request after a step');
    inspector.setBreakpoints([]);
    inspector.resume();
    const result = await run;
    expect(result.terminal.reason).toBe('completed');
    expect(result.modelCalls).toBe(3);
    await until(() => inspector.isClosed, 'the server to close after the run');
    expect(await portIsClosed(inspector.port)).toBe(true);
  });

  it('aborts from the page through the normal abort path: every tool_use gets its result', async () => {
    const inspector = await startInspector();
    const run = simulateScenario(twoToolRounds(), { observers: [inspector.attach('main')] });
    await until(() => inspector.session() !== undefined, 'the session');
    inspector.setBreakpoints([{ kind: 'tools' }]);
    await until(() => inspector.session()!.control.status().mode === 'paused', 'the hold before tools');
    const aborted = await post(inspector, `/api/sessions/${inspector.session()!.id}/control`, { action: 'abort' });
    expect(aborted.status).toBe(200);
    const result = await run;
    expect(result.terminal.reason).toMatch(/^aborted_/);
    expect(toolUseIds(result.emitted).length).toBeGreaterThan(0);
    expect(pairingViolations(result.emitted)).toEqual([]);
  });

  it('refuses malformed control requests with a clear 400 and a cross-origin POST with 403', async () => {
    const inspector = await startInspector({ keep: true });
    const run = simulateScenario(twoToolRounds(), { observers: [inspector.attach('main')] });
    try {
      await until(() => inspector.session() !== undefined, 'the session');
      const id = inspector.session()!.id;
      const bad = await post(inspector, `/api/sessions/${id}/control`, { action: 'jump' });
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('expected');
      const foreign = await post(inspector, `/api/sessions/${id}/control`, { action: 'pause' }, { origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
    } finally {
      await run;
      await inspector.close();
    }
  });

  it('streams the session log: a page that opens after the run gets every line, and they replay', async () => {
    const inspector = await startInspector({ keep: true });
    try {
      const result = await simulateScenario(twoToolRounds(), { observers: [inspector.attach('main')] });
      const stream = await new Promise<string>((resolve, reject) => {
        const req = request(`${inspector.url.replace('/?', '/api/stream?')}`, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (/event: status\ndata: .*"mode":"ended"/.test(text)) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', reject);
        req.end();
      });
      const lines = [...stream.matchAll(/^event: line\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { line: string }).line);
      const session = inspector.session()!;
      expect(lines).toEqual(session.lines);
      const saved = await get(`http://127.0.0.1:${inspector.port}/api/sessions/${session.id}/log?token=${inspector.token}`);
      expect(saved.body).toBe(`${lines.join('\n')}\n`);
      const replayed = replay({ text: saved.body });
      expect(replayed.terminal?.reason).toBe(result.terminal.reason);
    } finally {
      await inspector.close();
    }
  });
});
