/**
 * `--inspect` on a run that ends before anyone looked (a short simulation): the command keeps serving the URL it
 * printed until the page has been opened, then closes; `--inspect-paused` holds the run at its first step until
 * the page lets it go. Driven through `main()` as a user would, the page played by HTTP requests.
 */
import { request } from 'node:http';
import { portIsClosed } from '../../helpers/refusing-port.ts';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { examplePath } from '../../../src/cli/examples.ts';

function fakeIo(): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', stdout: { write: (t: string) => (io.out += t) }, stderr: { write: (t: string) => (io.err += t) }, env: {}, cwd: process.cwd() };
  return io;
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the page's stream and reads it until the server ends it (or `stopWhen` matches); returns the text. */
function readStream(url: string, stopWhen?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url.replace('/?', '/api/stream?'), (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (stopWhen?.test(text)) {
          req.destroy();
          resolve(text);
        }
      });
      res.on('end', () => resolve(text));
      res.on('error', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

const urlOf = (stderr: string) => /inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stderr)?.[1];

describe('turnloop simulate --inspect on a short run', () => {
  it('keeps serving the finished run until the page is opened, sends it every line, then closes', async () => {
    const io = fakeIo();
    let settled = false;
    const done = main(['simulate', examplePath('scenarios', 'completed'), '--inspect'], io).then((code) => {
      settled = true;
      return code;
    });
    await until(() => io.err.includes('until the page is opened'), 'the run to end');
    const url = urlOf(io.err)!;
    expect(url).toBeDefined();
    // Nobody has looked yet: it is still serving, however long that takes.
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    const page = await get(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<!DOCTYPE html>');
    const stream = await readStream(url);
    // The whole finished run reached the page, ending included, before the stream was closed.
    expect(stream).toMatch(/event: status\ndata: .*"mode":"ended"/);
    const lines = [...stream.matchAll(/^event: line\ndata: (.*)$/gm)];
    expect(lines.length).toBeGreaterThan(5);
    expect(await done).toBe(0);
    expect(await portIsClosed(Number(new URL(url).port))).toBe(true);
  }, 60_000);

  it('--inspect-paused holds the run at its first step until the page lets it go', async () => {
    const io = fakeIo();
    let settled = false;
    const done = main(['simulate', examplePath('scenarios', 'completed'), '--inspect-paused'], io).then((code) => {
      settled = true;
      return code;
    });
    await until(() => urlOf(io.err) !== undefined, 'the URL');
    const url = urlOf(io.err)!;
    expect(io.err).toContain('paused at the first step');
    const session = async () => (JSON.parse((await get(url.replace('/?', '/api/sessions?'))).body) as Array<{ id: string; status: { mode: string; index?: number } }>)[0];
    let first: Awaited<ReturnType<typeof session>> | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && first?.status.mode !== 'paused') {
      first = await session();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(first?.status.mode).toBe('paused');
    expect(settled).toBe(false);
    // The page presses Continue (the control request a page sends), then reads the finished run.
    const port = Number(new URL(url).port);
    const token = new URL(url).searchParams.get('token')!;
    const resumed = await new Promise<number>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${port}/api/sessions/${first!.id}/control?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ action: 'resume' }));
    });
    expect(resumed).toBe(200);
    const stream = await readStream(url);
    expect(stream).toMatch(/"mode":"ended"/);
    expect(await done).toBe(0);
    expect(io.out).toContain('completed');
  }, 60_000);
});
