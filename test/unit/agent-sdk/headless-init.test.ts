/**
 * What a headless session initialises before its first request (issue 38, item 8): code that only some runs use is
 * loaded, built or compiled when such a run needs it. Guarded by what a run loads or compiles (a loader hook, a
 * count of code compiled from strings, Node's list of its loaded built-ins), never by timing; the figures are in
 * docs/benchmarks.md. Each check has a control run that does load or compile the thing, so it can fail.
 *
 * The sessions are the Agent SDK's (stream-json on stdin, the API at ANTHROPIC_BASE_URL, a fake API started here)
 * unless a test says otherwise: that is the start-up the SDK waits for.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import { SDK_ARGS, tempProject, writeScript } from './headless-harness.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const mainUrl = new URL('../../../src/cli/main.ts', import.meta.url).href;
const bin = join(repo, 'bin/turnloop.mjs');
const ONE_TEXT_REPLY: FakeScriptInput = { model: [{ content: [{ type: 'text', text: 'hello' }] }] };
const SESSION = [
  { type: 'control_request', request_id: 'req_1', request: { subtype: 'initialize' } },
  { type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join('');

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Child {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; input: string }): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input);
  });
}

/**
 * An SDK session (or `extra` flags' run) in a child process: through `main()` on the sources (tsx), or through the
 * bin on the built dist/; `preload` modules run first. Without `--fake-api` in `extra`, the session's API is a fake
 * API started here, given as ANTHROPIC_BASE_URL as the SDK gives it.
 */
async function session(via: 'sources' | 'bin', preload: string[], extra: string[] = [], options: { persist?: boolean; cwd?: string } = {}): Promise<Child & { cwd: string }> {
  const cwd = options.cwd ?? tempProject();
  const home = tempProject();
  dirs.push(cwd, home);
  const offline = extra.includes('--fake-api');
  const api = offline ? null : await startFakeAnthropicApi(ONE_TEXT_REPLY);
  try {
    const argv = [...SDK_ARGS, '--setting-sources=', ...(options.persist ? [] : ['--no-session-persistence']), ...extra];
    const runMain = `const { main } = await import(${JSON.stringify(mainUrl)}); process.exitCode = await main(${JSON.stringify(argv)});`;
    const imports = preload.flatMap((code) => ['--import', `data:text/javascript,${encodeURIComponent(code)}`]);
    const args = via === 'bin' ? [...imports, bin, ...argv] : ['--import', 'tsx', ...imports, '--input-type=module', '-e', runMain];
    const log = join(cwd, 'modules.log');
    rmSync(log, { force: true });
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, TURNLOOP_MODULE_LOG: log };
    if (api) Object.assign(env, { ANTHROPIC_BASE_URL: api.baseURL, ANTHROPIC_API_KEY: 'sk-ant-test' });
    const child = await run(process.execPath, args, { cwd: via === 'bin' ? cwd : repo, env, input: SESSION });
    return { ...child, cwd };
  } finally {
    await api?.close();
  }
}

const moduleLog = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(`import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.TURNLOOP_MODULE_LOG, url + '\\n'); return next(url, context); }`)}`)});`;

function modulesOf(run: { cwd: string; stdout: string }): string[] {
  expect(run.stdout).toContain('"type":"result","subtype":"success"');
  const log = join(run.cwd, 'modules.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

describe('a headless session initialises only what it uses', () => {
  it('against an API (no --fake-api) it loads no module of the fake API; with --fake-api it does', async () => {
    const online = modulesOf(await session('sources', [moduleLog]));
    expect(online.some((url) => url.includes('/src/agent-sdk/headless-main.ts'))).toBe(true);
    expect(online.filter((url) => url.includes('/src/fake-api/'))).toEqual([]);
    const script = writeScript(tempProject(), ONE_TEXT_REPLY);
    const offline = modulesOf(await session('sources', [moduleLog], ['--fake-api', script]));
    expect(offline.some((url) => url.includes('/src/fake-api/server.ts'))).toBe(true);
  }, 90_000);

  it('a session that records its log loads neither the log parser nor its schemas; a --resume does', async () => {
    const parser = ['/src/replay/replay.ts', '/src/replay/parse-session-log.ts', '/src/replay/session-log-schema.ts', '/src/data/event-schema.ts'];
    const first = await session('sources', [moduleLog], [], { persist: true });
    const recorded = modulesOf(first);
    expect(recorded.some((url) => url.includes('/src/replay/session-recorder.ts'))).toBe(true);
    expect(parser.filter((part) => recorded.some((url) => url.includes(part)))).toEqual([]);
    const sessionId = JSON.parse(first.stdout.split('\n').find((line) => line.includes('"subtype":"init"'))!).session_id as string;
    const resumed = modulesOf(await session('sources', [moduleLog], ['--resume', sessionId], { persist: true, cwd: first.cwd }));
    expect(parser.filter((part) => !resumed.some((url) => url.includes(part)))).toEqual([]);
  }, 90_000);

  it('the built CLI parses with zod without its JIT: a session compiles no code from strings', async () => {
    expect(existsSync(join(repo, 'dist/cli/headless-bundle.cjs')), 'run `npm run build` (npm test does it)').toBe(true);
    // Counts what the Function constructor compiles (zod's JIT builds its parsers with `new Function`).
    const count = `let n = 0; const F = globalThis.Function;
globalThis.Function = new Proxy(F, { construct: (t, a, nt) => (n++, Reflect.construct(t, a, nt)), apply: (t, self, a) => (n++, Reflect.apply(t, self, a)) });
process.on('exit', () => process.stderr.write('compiled from strings: ' + n + '\\n'));`;
    const child = await session('bin', [count]);
    expect(child.stdout).toContain('"type":"result","subtype":"success"');
    expect(child.stderr).toBe('compiled from strings: 0\n');
    // The same count on zod as a library uses it: the JIT compiles the object schema's parser, so the check can fail.
    const zodUrl = new URL('node_modules/zod/index.js', `file://${repo}`).href;
    const control = await run(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(count)}`, '--input-type=module', '-e', `const { z } = await import(${JSON.stringify(zodUrl)}); z.object({ a: z.string() }).parse({ a: 'x' });`], { cwd: repo, env: { PATH: process.env.PATH ?? '' }, input: '' });
    expect(control.stderr).toMatch(/^compiled from strings: [1-9]\d*\n$/);
  }, 90_000);
});
