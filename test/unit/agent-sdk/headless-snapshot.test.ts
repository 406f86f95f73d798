/**
 * The headless mode's start-up snapshot (src/cli/headless-snapshot.ts; `npm run build` makes it): a process started
 * from it behaves as the normal start of the bin, sees its own command line, environment and working directory
 * (never the build's), and `agentSdkOptions()` gives it only to the Node that made it
 * (src/agent-sdk/headless-snapshot-args.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { headlessSnapshotArgs, HEADLESS_SNAPSHOT_INFO } from '../../../src/agent-sdk/headless-snapshot-args.ts';
import { agentSdkOptions } from '../../../src/agent-sdk/index.ts';
import { sessionLogPath } from '../../../src/agent-sdk/session-store.ts';
import { startFakeAnthropicApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import { initialize, SDK_ARGS, tempProject, userLine } from './headless-harness.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const distCli = join(repo, 'dist/cli');
const bin = join(repo, 'bin/turnloop.mjs');
const nodeDir = dirname(process.execPath);
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function temp(): string {
  const dir = tempProject();
  dirs.push(dir);
  return dir;
}

/** The build's snapshot arguments for this Node (the test runs on the Node that built dist/). */
function snapshotArgs(): string[] {
  const args = headlessSnapshotArgs(distCli, { PATH: nodeDir });
  expect(args, 'run `npm run build` with this Node (npm test does it)').not.toEqual([]);
  return args;
}

interface Session {
  lines: Array<Record<string, unknown>>;
  requests: unknown[];
  /** The key each request carried (x-api-key, or authorization). */
  apiKeys: string[];
  stderr: string;
  code: number | null;
}

/** An Agent SDK-shaped session (a Read call, then text) in a fresh directory, started with `nodeArgs` before the bin. */
async function sdkSession(nodeArgs: string[], marker: string, model: string): Promise<Session & { cwd: string }> {
  const cwd = temp();
  writeFileSync(join(cwd, 'notes.txt'), `${marker}\n`);
  const script: FakeScriptInput = {
    model: [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: join(cwd, 'notes.txt') } }] }, { content: [{ type: 'text', text: 'done' }] }],
  };
  const api = await startFakeAnthropicApi(script);
  try {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...SDK_ARGS, '--model', model], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, CLAUDE_CONFIG_DIR: cwd, ANTHROPIC_BASE_URL: api.baseURL, ANTHROPIC_API_KEY: `sk-ant-${marker}` },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.stdin.end([initialize(), userLine('Read notes.txt')].map((line) => `${JSON.stringify(line)}\n`).join(''));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const apiKeys = api.log.map((entry) => String(entry.headers['x-api-key'] ?? entry.headers.authorization));
    return { cwd, lines, requests: api.requests, apiKeys, stderr, code };
  } finally {
    await api.close();
  }
}

/** A session's output and requests with what differs between any two runs (ids, times, the temporary directory) masked. */
function comparable(session: Session & { cwd: string }, marker: string): string {
  return JSON.stringify({ lines: session.lines, requests: session.requests })
    .replaceAll(session.cwd, '<cwd>')
    .replaceAll(marker, '<marker>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"(duration_ms|duration_api_ms|ttft_ms|elapsed_ms)":\d+(\.\d+)?/g, '"$1":0');
}

describe('the headless start-up snapshot', () => {
  it('the build made one for this Node, described by the file beside it', () => {
    const info = JSON.parse(readFileSync(join(distCli, HEADLESS_SNAPSHOT_INFO), 'utf8'));
    expect(info).toMatchObject({ node: process.version, arch: process.arch, v8: process.versions.v8, dir: distCli });
    expect(existsSync(join(distCli, info.blob))).toBe(true);
  });

  it('an SDK session started from it writes and sends what the normal start does, and sees its own cwd, env and argv', async () => {
    const normal = await sdkSession([], 'marker-plain-start', 'claude-sonnet-4-6');
    const fromSnapshot = await sdkSession(snapshotArgs(), 'marker-from-a-blob', 'claude-sonnet-4-6');
    for (const run of [normal, fromSnapshot]) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    }
    expect(comparable(fromSnapshot, 'marker-from-a-blob')).toBe(comparable(normal, 'marker-plain-start'));
    // Its own working directory (system/init, the file it read), environment (the API key it sent, the API it
    // reached: its own fake API served both answers) and command line (the model).
    const init = fromSnapshot.lines.find((line) => line.subtype === 'init');
    expect(init).toMatchObject({ cwd: fromSnapshot.cwd, model: 'claude-sonnet-4-6' });
    expect(JSON.stringify(fromSnapshot.requests)).toContain('marker-from-a-blob');
    expect(fromSnapshot.apiKeys).toHaveLength(2);
    for (const key of fromSnapshot.apiKeys) expect(key).toMatch(/(^| )sk-ant-marker-from-a-blob$/);
    const session = fromSnapshot.lines.at(-1)!.session_id as string;
    expect(existsSync(sessionLogPath(fromSnapshot.cwd, session))).toBe(true);
  }, 90_000);

  it('two runs from it are two sessions: their own ids, model and time, nothing kept from the build or each other', async () => {
    const started = Date.now();
    const first = await sdkSession(snapshotArgs(), 'marker-first', 'claude-sonnet-4-6');
    const second = await sdkSession(snapshotArgs(), 'marker-second', 'claude-opus-4-1');
    const id = (run: Session) => run.lines.at(-1)!.session_id;
    expect(id(first)).not.toBe(id(second));
    expect(second.lines.find((line) => line.subtype === 'init')).toMatchObject({ cwd: second.cwd, model: 'claude-opus-4-1' });
    expect(JSON.stringify(second.requests)).not.toContain('marker-first');
    for (const run of [first, second]) expect(run.lines.at(-1)!.duration_ms as number).toBeLessThan(Date.now() - started);
  }, 90_000);

  it("the bundle's module initialisation (what the blob holds) reads no env or cwd and leaves no listener, handle or timer", () => {
    // Run in a child: the bundle loaded under a process.env that records what is read, with a control that reads.
    const probe = (extra: string) => `const reads = new Set();
const real = process.env;
process.env = new Proxy(real, { get: (t, k) => (typeof k === 'string' && reads.add(k), Reflect.get(t, k)), has: (t, k) => (reads.add(String(k)), Reflect.has(t, k)) });
const cwd = process.cwd; let cwdCalls = 0; process.cwd = () => (cwdCalls++, cwd());
const before = process.eventNames().map(String);
require(${JSON.stringify(join(distCli, 'headless-start.cjs'))}).loadBundle(${JSON.stringify(join(distCli, 'headless-bundle.cjs'))});
${extra}
console.log(JSON.stringify({ env: [...reads], cwdCalls, listeners: process.eventNames().map(String).filter((name) => !before.includes(name)), resources: process.getActiveResourcesInfo() }));`;
    const run = (extra: string) => JSON.parse(spawnSync(process.execPath, ['-e', probe(extra)], { encoding: 'utf8' }).stdout);
    expect(run('')).toEqual({ env: [], cwdCalls: 0, listeners: [], resources: [] });
    expect(run("process.env.HOME; process.cwd(); process.on('exit', () => {}); setTimeout(() => {}, 1);")).toEqual({ env: ['HOME'], cwdCalls: 1, listeners: ['exit'], resources: ['Timeout'] });
  });

  it('a command line that is not headless, or another script, runs as Node runs it without the snapshot', () => {
    const args = snapshotArgs();
    const plain = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    const viaSnapshot = spawnSync(process.execPath, [...args, bin, '--version'], { encoding: 'utf8' });
    expect(viaSnapshot.stdout).toBe(plain.stdout);
    expect(viaSnapshot.status).toBe(0);
    const other = join(temp(), 'other.mjs');
    writeFileSync(other, "process.stdout.write(process.argv.slice(2).join(' ') + ' ' + process.cwd()); process.exitCode = 7;");
    const cwd = temp();
    const run = spawnSync(process.execPath, [...args, other, 'a', 'b'], { encoding: 'utf8', cwd });
    expect(run.stdout).toBe(`a b ${cwd}`);
    expect(run.status).toBe(7);
  }, 60_000);

  it('a `-p` run from it answers as the normal start, bad input included (exit 2)', () => {
    const cwd = temp();
    const run = (nodeArgs: string[], args: string[]) => spawnSync(process.execPath, [...nodeArgs, bin, ...args], { encoding: 'utf8', cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd } });
    for (const args of [['-p', 'Say hello', '--example', 'hello', '--no-session-persistence'], ['-p', '-x']]) {
      const normal = run([], args);
      const fromSnapshot = run(snapshotArgs(), args);
      expect({ stdout: fromSnapshot.stdout, stderr: fromSnapshot.stderr, status: fromSnapshot.status }).toEqual({ stdout: normal.stdout, stderr: normal.stderr, status: normal.status });
    }
  }, 60_000);
});

describe('making the snapshot', () => {
  it('under NODE_OPTIONS V8 flags makes no blob that a session without them cannot start (Node would exit 14)', () => {
    // A copy of the package without its cache and blob, in which they are made as build.mjs makes them.
    const copy = temp();
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(repo, part), join(copy, part), { recursive: true, filter: (from) => !/\.(cache|snapshot\.blob|snapshot\.json)$/.test(from) });
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
    symlinkSync(join(repo, 'examples'), join(copy, 'examples'));
    const copyCli = join(copy, 'dist/cli');
    const make = `const w = await import(${JSON.stringify(join(copyCli, 'headless-warm-start.js'))});
const bundle = ${JSON.stringify(join(copyCli, 'headless-bundle.cjs'))};
await w.makeHeadlessCodeCache(bundle);
console.log(JSON.stringify(w.makeHeadlessSnapshot(bundle).made));`;
    const made = spawnSync(process.execPath, ['--input-type=module', '-e', make], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '--max-old-space-size=4096' } });
    expect(made.status, made.stderr).toBe(0);
    const args = headlessSnapshotArgs(copyCli, { PATH: nodeDir });
    const run = spawnSync(process.execPath, [...args, join(copy, 'bin/turnloop.mjs'), '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  }, 120_000);
});

describe('agentSdkOptions() and the snapshot', () => {
  it('gives the SDK the snapshot when it fits the Node the SDK will start', () => {
    const options = agentSdkOptions();
    const path = process.env.PATH ?? '';
    const nodeFirst = headlessSnapshotArgs(distCli, { PATH: path });
    expect(options.executableArgs).toEqual(nodeFirst.length > 0 ? nodeFirst : undefined);
    expect(snapshotArgs().slice(0, 2)).toEqual(['--snapshot-blob', join(distCli, 'headless-bundle.snapshot.blob')]);
  });

  it('gives nothing (the normal start) when the blob is missing, made by another Node, or the SDK would start another Node', () => {
    const folder = temp();
    const info = JSON.parse(readFileSync(join(distCli, HEADLESS_SNAPSHOT_INFO), 'utf8'));
    const withInfo = (changes: Record<string, unknown>, blob = true) => {
      const dir = join(folder, String(Math.random()).slice(2));
      mkdirSync(dir);
      writeFileSync(join(dir, HEADLESS_SNAPSHOT_INFO), JSON.stringify({ ...info, dir, ...changes }));
      if (blob) writeFileSync(join(dir, info.blob), '');
      return dir;
    };
    const env = { PATH: nodeDir };
    const fits = withInfo({});
    expect(headlessSnapshotArgs(fits, env)).toEqual(['--snapshot-blob', join(fits, info.blob), ...info.v8Flags]);
    expect(headlessSnapshotArgs(folder, env)).toEqual([]); // no description
    expect(headlessSnapshotArgs(withInfo({}, false), env)).toEqual([]); // no blob
    expect(headlessSnapshotArgs(withInfo({ node: 'v20.0.0' }), env)).toEqual([]);
    expect(headlessSnapshotArgs(withInfo({ arch: 'arm64' === process.arch ? 'x64' : 'arm64' }), env)).toEqual([]);
    expect(headlessSnapshotArgs(withInfo({ v8: '0.0.0' }), env)).toEqual([]);
    // Made in another folder (the package copied or moved since): the blob's heap names the bin it was made beside,
    // so a run from it would start a second Node for the bin here, slower than no snapshot.
    expect(headlessSnapshotArgs(withInfo({ dir: distCli }), env)).toEqual([]);
    const broken = withInfo({});
    writeFileSync(join(broken, HEADLESS_SNAPSHOT_INFO), '{');
    expect(headlessSnapshotArgs(broken, env)).toEqual([]);
    // Node flags from the environment change V8's flags: Node would refuse the blob.
    expect(headlessSnapshotArgs(withInfo({}), { ...env, NODE_OPTIONS: '--max-old-space-size=4096' })).toEqual([]);
    // The SDK's `node` is the first on PATH: another Node there, or none, gets nothing.
    const otherNode = join(folder, 'other-bin');
    mkdirSync(otherNode);
    writeFileSync(join(otherNode, 'node'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(otherNode, 'node'), 0o755);
    expect(headlessSnapshotArgs(withInfo({}), { PATH: `${otherNode}:${nodeDir}` })).toEqual([]);
    expect(headlessSnapshotArgs(withInfo({}), { PATH: folder })).toEqual([]);
  });

  it('Node refuses a blob made under other V8 flags by exiting 14 before any of our code: why the check above matters', () => {
    const [flag, blob] = snapshotArgs();
    const run = spawnSync(process.execPath, [flag, blob, '--max-old-space-size=123', bin, '-p', 'hi'], { encoding: 'utf8' });
    expect(run.status).toBe(14);
    expect(run.stdout).toBe('');
  });
});
