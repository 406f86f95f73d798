/**
 * The files that make the headless mode start fast for the Node that runs this process, beside the bundle: its V8
 * code cache (compiled after offline runs of what a headless process does) and its start-up snapshot
 * (src/cli/headless-snapshot.ts). `npm run build` makes both for the build's Node; `turnloop snapshot` makes them for
 * the user's (the published package carries the code cache of the build's V8 only, and no snapshot: a blob fits
 * one Node exactly).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { HEADLESS_SNAPSHOT_INFO, type HeadlessSnapshotInfo } from '../agent-sdk/headless-snapshot-args.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { startFakeAnthropicApi } from '../fake-api/index.ts';
import { bundleV8Flags, codeCachePath, loadBundle } from './bundle-loader.ts';

/** The snapshot builder's script, in dist/cli/ beside the bundle (`npm run build` bundles it from headless-snapshot.ts). */
export const HEADLESS_SNAPSHOT_ENTRY = 'headless-snapshot-entry.cjs';

/** The blob `makeHeadlessSnapshot` writes beside a bundle. */
export const snapshotBlobPath = (bundleFile: string) => bundleFile.replace(/\.cjs$/, '.snapshot.blob');

interface HeadlessMainExports {
  headlessMain(argv: string[], io: object): Promise<number>;
}

/**
 * Compiles the bundle after two offline runs, `-p` on the shipped hello script (a Glob call, then the answer) and an
 * Agent SDK stream-json session (a Read call, then the answer) against a fake API outside the bundle, as an SDK
 * session's API is, and writes the code cache for this V8 beside it. Throws when a warm-up run does not end well.
 */
export async function makeHeadlessCodeCache(bundleFile: string): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'turnloop-warm-up-'));
  const notes = join(cwd, 'notes.txt');
  writeFileSync(notes, 'a line\n');
  const api = await startFakeAnthropicApi({
    model: [{ content: [{ type: 'tool_use', id: 'toolu_warm_1', name: 'Read', input: { file_path: notes } }] }, { content: [{ type: 'text', text: 'Done.' }] }],
  });
  try {
    const loaded = loadBundle<HeadlessMainExports>(bundleFile, 'make-cache');
    const io = { stdout: { write: () => true }, stderr: process.stderr, env: { ANTHROPIC_BASE_URL: api.baseURL, ANTHROPIC_API_KEY: 'sk-ant-warm-up', HOME: cwd, CLAUDE_CONFIG_DIR: cwd }, cwd };
    const sdkSession = [
      { type: 'control_request', request_id: 'req_1', request: { subtype: 'initialize' } },
      { type: 'user', message: { role: 'user', content: 'Read notes.txt' }, parent_tool_use_id: null, session_id: '' },
    ].map((line) => `${JSON.stringify(line)}\n`);
    const warmUps: Array<[string[], Readable]> = [
      [['-p', 'Say hello', '--example', 'hello', '--no-session-persistence'], Readable.from([])],
      [['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--model=claude-sonnet-4-6', '--setting-sources='], Readable.from(sdkSession)],
    ];
    for (const [args, stdin] of warmUps) {
      const code = await loaded.exports.headlessMain(args, { ...io, stdin });
      if (code !== 0) throw new TurnloopError('HEADLESS_WARM_UP_FAILED', `the headless bundle's warm-up run ${args.join(' ')} ended with exit code ${code}`);
    }
    // The session's two answers were served and none refused: the warm-up ran the Read call, not an error path.
    if (api.remaining() !== 0 || api.rejections().length !== 0) throw new TurnloopError('HEADLESS_WARM_UP_FAILED', "the headless bundle's SDK warm-up session did not make its two model calls");
    const cache = loaded.createCache();
    if (!cache) throw new TurnloopError('HEADLESS_WARM_UP_FAILED', 'V8 made no code cache of the headless bundle');
    const file = codeCachePath(bundleFile);
    writeFileSync(file, cache);
    return file;
  } finally {
    await api.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

export type SnapshotOutcome = { made: true; blob: string } | { made: false; reason: string };

/**
 * Runs Node's snapshot builder on the entry beside `bundleFile` (it loads the bundle from this V8's code cache, which
 * must exist) and, when it succeeds, writes the blob and HEADLESS_SNAPSHOT_INFO (which Node made it, under which V8
 * flags, in which folder) beside the bundle. A failure leaves neither, so agentSdkOptions() keeps the normal start.
 */
export function makeHeadlessSnapshot(bundleFile: string): SnapshotOutcome {
  const dir = dirname(bundleFile);
  const blob = snapshotBlobPath(bundleFile);
  const infoFile = join(dir, HEADLESS_SNAPSHOT_INFO);
  rmSync(infoFile, { force: true });
  if (!existsSync(codeCachePath(bundleFile))) return { made: false, reason: `no code cache for V8 ${process.versions.v8} beside ${bundleFile}` };
  // The builder warns that node:module and node:readline are "not yet fully verified" in a snapshot: its output is
  // shown only when it fails.
  // Without NODE_OPTIONS: its V8 flags would go into the blob, which a session's Node (the SDK removes NODE_OPTIONS,
  // and agentSdkOptions() gives the blob to none that has it) then refuses, exiting 14. A code cache made under them
  // is refused here instead (no blob).
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  // Made under another name and renamed when whole: a session starting meanwhile never reads half a blob.
  const partial = `${blob}.${process.pid}.partial`;
  const built = spawnSync(process.execPath, ['--snapshot-blob', partial, '--build-snapshot', join(dir, HEADLESS_SNAPSHOT_ENTRY), bundleFile], { encoding: 'utf8', env });
  if (built.status !== 0) {
    rmSync(partial, { force: true });
    rmSync(blob, { force: true });
    return { made: false, reason: `Node's snapshot builder ended with ${built.signal ?? `exit code ${built.status}`}: ${`${built.stderr}${built.stdout}`.trim()}` };
  }
  renameSync(partial, blob);
  const info: HeadlessSnapshotInfo = { blob: basename(blob), node: process.version, arch: process.arch, v8: process.versions.v8, v8Flags: bundleV8Flags(), dir: realpathSync(dir) };
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`);
  return { made: true, blob };
}
