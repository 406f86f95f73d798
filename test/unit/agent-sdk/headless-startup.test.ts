/**
 * The headless mode's start-up loads only what the run needs (issue 38, item 8): a one-turn `turnloop -p` against a
 * scripted model must not load the MCP client and bridge, the JSON Schema compiler, the shell parser, the durable
 * runtime, the viewer or OpenTelemetry's SDK. Guarded by what is loaded (a loader hook in a child process that logs
 * every module URL), not by timing; the figures are in docs/benchmarks.md. A run that does need one of them
 * (`--json-schema` compiles its schema on ajv) shows the hook sees such modules, so the check can fail.
 *
 * The installed CLI (bin/turnloop.mjs on the built dist/) runs a headless command line from the one-file bundle
 * `npm run build` makes (src/cli/bundle-loader.ts): such a run loads one small file of dist/ and the bundle, no
 * package from node_modules, and the bundle runs from the code cache the build made for this Node.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import { initialize, SDK_ARGS, tempProject, userLine, writeScript } from './headless-harness.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const mainUrl = new URL('../../../src/cli/main.ts', import.meta.url).href;
const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.TURNLOOP_MODULE_LOG, url + '\\n'); return next(url, context); }`;
// ESM imports go through the loader hook; `require()` (the shell parser and re2-wasm are loaded that way) does not
// in Node 20, so the same preload also logs every file `require()` resolves.
const registerHook = `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
const Module = createRequire(${JSON.stringify(mainUrl)})('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try { appendFileSync(process.env.TURNLOOP_MODULE_LOG, 'require:' + Module._resolveFilename(request, parent) + '\\n'); } catch {}
  return loaded;
};`;

/** Modules a one-turn run with built-in tools never needs. */
const NOT_LOADED = [
  '/node_modules/ajv/',
  '/node_modules/re2-wasm/',
  '/node_modules/@modelcontextprotocol/',
  '/node_modules/yaml/',
  'tree-sitter',
  '/node_modules/@dbos-inc/',
  '/node_modules/@opentelemetry/sdk-trace-base/',
  '/src/mcp/',
  '/src/agent-sdk/sdk-mcp-servers.ts',
  '/src/durable/',
  '/src/viz/',
  '/src/inspector/',
  '/src/otel/',
];

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const ONE_TEXT_REPLY: FakeScriptInput = { model: [{ content: [{ type: 'text', text: 'hello' }] }] };

/** The modules a headless run loads: through `main()` on the sources (tsx), or through the bin on the built dist/. */
function loadedBy(args: string[], reply = ONE_TEXT_REPLY, via: 'sources' | 'bin' = 'sources'): { modules: string[]; stdout: string; status: number | null } {
  const cwd = tempProject();
  dirs.push(cwd);
  const log = join(cwd, 'modules.log');
  const script = writeScript(cwd, reply);
  const argv = [...args, '--fake-api', script];
  const run = `const { main } = await import(${JSON.stringify(mainUrl)}); process.exitCode = await main(${JSON.stringify(argv)});`;
  const hookFlag = ['--import', `data:text/javascript,${encodeURIComponent(registerHook)}`];
  const command = via === 'bin' ? [...hookFlag, join(repo, 'bin/turnloop.mjs'), ...argv] : ['--import', 'tsx', ...hookFlag, '--input-type=module', '-e', run];
  const child = spawnSync(process.execPath, command, {
    cwd: via === 'bin' ? cwd : repo,
    env: { ...process.env, TURNLOOP_MODULE_LOG: log },
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
  });
  if (!existsSync(log)) throw new Error(`the child logged nothing: ${child.stderr}`);
  expect(child.stderr).toBe('');
  return { modules: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout: child.stdout, status: child.status };
}

describe('headless start-up', () => {
  it('a one-turn `-p` run loads none of the modules only other runs need', () => {
    const { modules, stdout, status } = loadedBy(['-p', 'hi']);
    expect(status).toBe(0);
    expect(stdout).toBe('hello\n');
    expect(modules.some((url) => url.includes('/src/agent-sdk/headless-main.ts'))).toBe(true);
    expect(NOT_LOADED.filter((part) => modules.some((url) => url.includes(part)))).toEqual([]);
  }, 90_000);

  it('the same run with --json-schema loads ajv, so the hook sees what a run loads', () => {
    const schema = JSON.stringify({ type: 'object', properties: { answer: { type: 'string' } } });
    const { modules } = loadedBy(['-p', 'hi', '--json-schema', schema]);
    expect(modules.some((url) => url.includes('/node_modules/ajv/'))).toBe(true);
  }, 90_000);

  it('a Bash call matched against an allow rule loads the shell parser through require(), which the log sees too', () => {
    const bash: FakeScriptInput = {
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    };
    const { modules, status } = loadedBy(['-p', 'hi', '--allowedTools', 'Bash(echo:*)'], bash);
    expect(status).toBe(0);
    expect(modules.some((entry) => entry.startsWith('require:') && entry.includes('tree-sitter'))).toBe(true);
  }, 90_000);
});

describe('headless start-up of the built CLI (bin/turnloop.mjs on dist/)', () => {
  const bundle = join(repo, 'dist/cli/headless-bundle.cjs');
  /** The files the bundle holds, as esbuild reported them to the build (the minified bundle names none of them). */
  const bundleInputs = () => readFileSync(bundle.replace(/\.cjs$/, '.inputs.txt'), 'utf8').split('\n').filter(Boolean);
  /** What bin/ may load of dist/ before the bundle: the check of the command line and the bundle's loader, in one file. */
  const BEFORE_THE_BUNDLE = ['bin/turnloop.mjs', 'dist/cli/headless-start.cjs'];

  it('a one-turn `-p` run loads the bundle and no other module of dist/ or node_modules', () => {
    expect(existsSync(bundle), 'run `npm run build` (npm test does it)').toBe(true);
    const { modules, stdout, status } = loadedBy(['-p', 'hi'], ONE_TEXT_REPLY, 'bin');
    expect(status).toBe(0);
    expect(stdout).toBe('hello\n');
    const files = modules.map((entry) => entry.replace(/^require:/, '')).filter((entry) => !entry.startsWith('node:'));
    expect(files.map((file) => fileURLToPath(new URL(file, 'file:///')).slice(repo.length)).sort()).toEqual([...BEFORE_THE_BUNDLE].sort());
  }, 90_000);

  it('the same run of a Bash call loads the shell parser from node_modules, so the check above can fail', () => {
    const bash: FakeScriptInput = {
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    };
    const { modules, status } = loadedBy(['-p', 'hi', '--allowedTools', 'Bash(echo:*)'], bash, 'bin');
    expect(status).toBe(0);
    expect(modules.some((entry) => entry.startsWith('require:') && entry.includes('/node_modules/@vscode/tree-sitter-wasm/'))).toBe(true);
  }, 90_000);

  it('the bundle runs from the code cache the build made for this Node (V8 accepts it)', () => {
    const code = `const { loadBundle } = await import(${JSON.stringify(new URL('dist/cli/bundle-loader.js', `file://${repo}`).href)});
console.log(loadBundle(${JSON.stringify(bundle)}).via);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stdout.trim()).toBe('cached');
  }, 90_000);

  it("an Agent SDK session loads no undici (Node's fetch, Headers): the model client has its own", () => {
    const cwd = tempProject();
    dirs.push(cwd);
    const script = writeScript(cwd, ONE_TEXT_REPLY);
    const session = [
      { type: 'control_request', request_id: 'req_1', request: { subtype: 'initialize' } },
      { type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' },
    ];
    const report = `process.on('exit', () => process.stderr.write('undici loaded: ' + process.moduleLoadList.some((name) => name.includes('undici')) + '\\n'));`;
    const preload = ['--import', `data:text/javascript,${encodeURIComponent(report)}`];
    const sdkFlags = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--fake-api', script, '--no-session-persistence'];
    const run = spawnSync(process.execPath, [...preload, join(repo, 'bin/turnloop.mjs'), ...sdkFlags], {
      cwd,
      encoding: 'utf8',
      input: session.map((line) => `${JSON.stringify(line)}\n`).join(''),
      timeout: 60_000,
    });
    expect(run.stdout).toContain('"type":"result","subtype":"success"');
    expect(run.stderr).toBe('undici loaded: false\n');
    // The same report on a process that touches Headers: the check can fail.
    const control = spawnSync(process.execPath, [...preload, '-e', 'new Headers()'], { encoding: 'utf8', timeout: 60_000 });
    expect(control.stderr).toBe('undici loaded: true\n');
  }, 90_000);

  it('an Agent SDK session that runs no command loads no child_process; one that runs Bash does', async () => {
    // The API is outside the process, as an SDK session's is: a server in the process (`--fake-api`) listens, and
    // Node's net loads child_process (through cluster) for any server that listens.
    const report = `process.on('exit', () => process.stderr.write('child_process loaded: ' + process.moduleLoadList.includes('NativeModule child_process') + '\\n'));`;
    const preload = ['--import', `data:text/javascript,${encodeURIComponent(report)}`];
    const sessionWith = async (reply: FakeScriptInput, extra: string[] = []) => {
      const cwd = tempProject();
      dirs.push(cwd);
      writeFileSync(join(cwd, 'notes.txt'), 'a line\n');
      const api = await startFakeAnthropicApi(reply);
      try {
        const child = spawn(process.execPath, [...preload, join(repo, 'bin/turnloop.mjs'), ...SDK_ARGS, '--no-session-persistence', ...extra], {
          cwd,
          env: { PATH: process.env.PATH ?? '', HOME: cwd, CLAUDE_CONFIG_DIR: cwd, ANTHROPIC_BASE_URL: api.baseURL, ANTHROPIC_API_KEY: 'sk-ant-test' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        child.stdin.end([initialize(), userLine('hi')].map((line) => `${JSON.stringify(line)}\n`).join(''));
        await new Promise((resolve) => child.on('close', resolve));
        return { stdout, stderr };
      } finally {
        await api.close();
      }
    };
    const read: FakeScriptInput = {
      model: [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'notes.txt' } }] }, { content: [{ type: 'text', text: 'done' }] }],
    };
    const quiet = await sessionWith(read);
    expect(quiet.stdout).toContain('"type":"result","subtype":"success"');
    expect(quiet.stderr).toBe('child_process loaded: false\n');
    const bash: FakeScriptInput = {
      model: [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo from-bash' } }] }, { content: [{ type: 'text', text: 'done' }] }],
    };
    const withBash = await sessionWith(bash, ['--allowedTools', 'Bash(echo:*)']);
    expect(withBash.stdout).toContain('from-bash');
    expect(withBash.stdout).toContain('"type":"result","subtype":"success"');
    expect(withBash.stderr).toBe('child_process loaded: true\n');
  }, 90_000);

  it('the bundle is all ASCII, so the loader reads it without decoding UTF-8', () => {
    const bytes = readFileSync(bundle);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('the bundle leaves out what loads on demand from node_modules (WASM packages, ajv, yaml, the MCP SDK)', () => {
    const inputs = bundleInputs();
    expect(inputs).toContain('dist/agent-sdk/headless-main.js');
    expect(inputs.some((path) => path.startsWith('node_modules/@anthropic-ai/sdk/'))).toBe(true);
    const outside = ['node_modules/re2-wasm/', 'node_modules/@vscode/tree-sitter-wasm/', 'node_modules/ajv/', 'node_modules/yaml/', 'node_modules/@modelcontextprotocol/'];
    expect(outside.filter((prefix) => inputs.some((path) => path.startsWith(prefix)))).toEqual([]);
  });

  it('names every package it copies, with its license text, in the notice beside it', () => {
    const inputs = bundleInputs();
    const innermost = (path: string) => path.slice(path.lastIndexOf('node_modules/'));
    const packages = new Set(inputs.filter((path) => path.includes('node_modules/')).map((path) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(innermost(path))![1]));
    const notice = readFileSync(bundle.replace(/\.cjs$/, '.licenses.txt'), 'utf8');
    expect(packages.size).toBeGreaterThan(3);
    for (const name of packages) expect(notice, name).toMatch(new RegExp(`^${name.replace(/[./]/g, '\\$&')} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    expect(notice).toContain('Permission is hereby granted, free of charge');
  });
});
