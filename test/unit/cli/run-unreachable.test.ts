/**
 * `turnloop run` aimed at an endpoint that is not there fails in seconds and says where and why: a malformed URL is
 * bad input (exit 2) before any request; a refused connection gets 2 retries (Extension `cliUnreachableRetries`),
 * each line naming the URL and the cause; `--max-retries` sets the count. `query({ onRetry })` tells an embedder
 * the same. No network: 127.0.0.1 ports that nothing listens on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { query } from '../../../src/api/query.ts';
import { CLI_UNREACHABLE_RETRIES } from '../../../src/cli/commands/run.ts';
import type { ModelRetryNotice } from '../../../src/model/anthropic-model-caller.ts';
import { refusingPort } from '../../helpers/refusing-port.ts';
import { runCli } from './capture-io.ts';

describe('turnloop run against an endpoint that is not there', () => {
  let project = '';
  const runIn = (flags: string[], env: Record<string, string>) => {
    project = mkdtempSync(join(tmpdir(), 'turnloop-unreachable-'));
    return runCli(['run', 'look around', '--yes', '--no-record', ...flags], { env: { ANTHROPIC_API_KEY: 'test-key', ...env }, cwd: project });
  };
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it.each([
    ['ANTHROPIC_BASE_URL', [], { ANTHROPIC_BASE_URL: 'localhost:9' }],
    ['--base-url', ['--base-url', 'localhost:9'], {}],
  ] as const)('a base URL without a scheme from %s is refused before any request (exit 2)', async (source, flags, env) => {
    const started = Date.now();
    const result = await runIn([...flags], { ...env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${source} is "localhost:9": it has no scheme (http:// or https://)`);
    expect(result.stderr).toContain('expected an absolute http:// or https:// URL with a host');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a refused connection fails in seconds after 2 retries, each line and the final message naming the URL and the cause', async () => {
    const port = await refusingPort();
    const url = `http://127.0.0.1:${port}/v1/messages`;
    const started = Date.now();
    const result = await runIn([], { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
    const elapsed = Date.now() - started;
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(CLI_UNREACHABLE_RETRIES);
    lines.forEach((line, i) => {
      expect(line).toContain(`(${url}: connect ECONNREFUSED 127.0.0.1:${port})`);
      expect(line).toContain(`retry ${i + 1} of ${CLI_UNREACHABLE_RETRIES}`);
    });
    expect(result.stdout).toContain(`ended on an API error: API error: Connection error ${url}: connect ECONNREFUSED 127.0.0.1:${port} (gave up after 2 retries)`);
    // Backoff 0.5 s + 1 s; the original's schedule would take ~160 s.
    expect(elapsed).toBeLessThan(10_000);
  });

  it('--max-retries 0 gives up at the first failure; --max-retries takes a whole number only', async () => {
    const port = await refusingPort();
    const result = await runIn(['--max-retries', '0'], { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('ECONNREFUSED');
    const bad = await runIn(['--max-retries', 'two'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-retries expects a whole number of 0 or more, got 'two'");
  });

  it('--help says the default retry count, the backoff and why', async () => {
    const help = (await runCli(['run', '--help'])).stdout;
    expect(help).toMatch(/--max-retries N\s+retries of a failed request \(default 10, with backoff from 0.5 s doubling up to\s+32 s: Claude Code's schedule/);
    expect(help).toContain(`retried only\n                   ${CLI_UNREACHABLE_RETRIES} times unless this flag is given`);
  });
});

describe('query({ onRetry })', () => {
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
  afterEach(() => {
    for (const [name, value] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('tells the embedder about each retry of the default caller, with the URL and the cause', async () => {
    const port = await refusingPort();
    process.env.ANTHROPIC_API_KEY = 'test-key';
    process.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${port}`;
    const notices: ModelRetryNotice[] = [];
    const run = query({ prompt: 'hi', config: { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } }, onRetry: (n) => notices.push(n) });
    let next = await run.next();
    while (!next.done) next = await run.next();
    expect(next.value.reason).toBe('completed');
    expect(notices.map((n) => [n.attempt, n.maxRetries, n.error.url])).toEqual([
      [1, 2, `http://127.0.0.1:${port}/v1/messages`],
      [2, 2, `http://127.0.0.1:${port}/v1/messages`],
    ]);
    expect(notices[0]?.error.cause).toContain('ECONNREFUSED');
  });
});
