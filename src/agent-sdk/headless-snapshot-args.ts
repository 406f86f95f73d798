/**
 * The Node arguments that start turnloop's headless mode from its V8 start-up snapshot (src/cli/headless-snapshot.ts),
 * for the Agent SDK's `executableArgs`, or none. Node refuses a blob made by another Node, on another architecture or
 * under other V8 flags by exiting (code 14) before any of our code runs, so the arguments are given only when the
 * Node the SDK will start is certainly the one the blob was made by; otherwise the session starts as it always did.
 *
 * The build writes `HEADLESS_SNAPSHOT_INFO` beside the bundle when it made a blob: the blob's file name, the Node
 * version, architecture and V8 version that made it, and the V8 flags it was made under (the bundle's own,
 * `bundleV8Flags`), which Node must be given again.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Written by `npm run build` in dist/cli/ beside the blob. */
export const HEADLESS_SNAPSHOT_INFO = 'headless-bundle.snapshot.json';

export interface HeadlessSnapshotInfo {
  /** The blob's file name, in the same folder. */
  blob: string;
  node: string;
  arch: string;
  v8: string;
  /** V8 flags the blob was made under, to give Node with it. */
  v8Flags: string[];
  /**
   * The real path of the folder the blob was made in: its heap names the bin beside it, so a blob copied or moved
   * with its package would start a second Node for the bin it finds (src/cli/headless-snapshot.ts).
   */
  dir: string;
}

/**
 * `['--snapshot-blob', <blob>, ...flags]` when `distCli` holds a blob made there by the Node that runs this process, and
 * the SDK's `node` (the first on `env.PATH`) is that Node, and `NODE_OPTIONS` adds no flag of its own; else `[]`.
 */
export function headlessSnapshotArgs(distCli: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (process.platform === 'win32' || (env.NODE_OPTIONS ?? '').trim() !== '') return [];
  const infoFile = join(distCli, HEADLESS_SNAPSHOT_INFO);
  if (!existsSync(infoFile)) return [];
  let info: HeadlessSnapshotInfo;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8')) as HeadlessSnapshotInfo;
  } catch {
    return [];
  }
  const blob = join(distCli, String(info.blob));
  const made = info.node === process.version && info.arch === process.arch && info.v8 === process.versions.v8;
  if (!made || !Array.isArray(info.v8Flags) || info.dir !== realPath(distCli) || !existsSync(blob) || nodeOnPath(env.PATH) !== realPath(process.execPath)) return [];
  return ['--snapshot-blob', blob, ...info.v8Flags.map(String)];
}

/** The real path of the `node` a spawn finds on `path` (what the SDK's `executable: 'node'` starts), if any. */
function nodeOnPath(path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return realPath(candidate);
    } catch {
      // none here that a spawn would run
    }
  }
  return undefined;
}

/** The real path of `path`, or undefined when it does not resolve (also the snapshot's check of its bin). */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
