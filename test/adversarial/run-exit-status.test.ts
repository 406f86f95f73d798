/**
 * `turnloop run`'s exit status tells the truth (issue 29, item 7): Ctrl-C during a run exits 130 (the log still
 * replays), and an OpenTelemetry collector that never answers neither changes the status of a completed run nor
 * holds the process past the documented flush timeout.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../src/fake-api/index.ts';
import { OTLP_FLUSH_TIMEOUT_MS } from '../../src/otel/otlp-export.ts';
import { replay } from '../../src/replay/replay.ts';
import { REPO_ROOT, runCli } from '../unit/cli/capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-run-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** A TCP server that accepts connections and never answers (a hung collector). */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

describe('turnloop run exit status', () => {
  it('a completed run whose OTel collector never answers exits 0, within the flush timeout, saying the spans were lost', async () => {
    const collector = await silentServer();
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'done' }] }] });
    try {
      const started = Date.now();
      const result = await runCli(['run', 'say done', '--otel', '--no-record', '--no-task', '--cwd', dir], {
        cwd: dir,
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      });
      const elapsed = Date.now() - started;
      expect(result.stdout).toContain('terminal: completed');
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/--otel: spans not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: /);
      // The run itself is instant against the fake API; what is left is the bounded flush (plus load slack).
      expect(elapsed).toBeLessThan(OTLP_FLUSH_TIMEOUT_MS + 6_000);
    } finally {
      await api.close();
      await collector.close();
    }
  });

  it('Ctrl-C during a run exits 130, and the log it leaves replays', async () => {
    // The model takes 30 s to answer: the run is surely waiting on it when SIGINT comes.
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'late' }], delayMs: 30_000 }] });
    const log = join(dir, 'interrupted.jsonl');
    try {
      const script = `import { main } from ${JSON.stringify(MAIN)}; process.exitCode = await main(${JSON.stringify(['run', 'wait', '--record', log, '--no-task', '--cwd', dir])});`;
      // From the repository, where `tsx` resolves; the run's files are confined to `dir` by --cwd.
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: REPO_ROOT,
        env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      const deadline = Date.now() + 40_000;
      while (api.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect({ requests: api.requests.length, output }).toMatchObject({ requests: 1 });
      const interruptedAt = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      expect({ code, output }).toMatchObject({ code: 130 });
      expect(Date.now() - interruptedAt).toBeLessThan(5_000);
      expect(replay(log).terminal?.reason).toBe('aborted_streaming');
    } finally {
      await api.close();
    }
  });
});
