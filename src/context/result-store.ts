/**
 * Where the tool-result budget (layer 0) puts the full text of a result it replaced by a preview.
 *
 * Invariants:
 * - `pointerFor` is a pure function of (sessionId, toolUseId), so the pure layer can write the pointer into the
 *   preview before the text is stored; `put` stores the text at exactly that pointer and returns it.
 * - The file store never writes through a symlink: every directory from its workspace (by default the working
 *   directory for a relative root, the root's parent for an absolute one) down to the file is created or checked one by one
 *   (`lstat`, never following a link), the file is opened with `O_NOFOLLOW`, and what was opened is checked
 *   (device and inode) against the confined real path before a byte is written. A `.turnloop` symlinked out of
 *   the workspace is refused with `StoreOutsideWorkspaceError`, and nothing is created on the far side.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';

export class StoreOutsideWorkspaceError extends TurnloopError {
  constructor(readonly path: string, reason: string) {
    super('STORE_OUTSIDE_WORKSPACE', `tool-result store: refusing to write ${path}: ${reason}`);
    this.name = 'StoreOutsideWorkspaceError';
  }
}

export interface ToolResultStore {
  /** Where the full text of this result is (or will be) stored. */
  pointerFor(sessionId: string, toolUseId: string): string;
  /** Stores the full text; returns its pointer (equal to `pointerFor`). */
  put(sessionId: string, toolUseId: string, content: string): Promise<string>;
}

/**
 * Keeps ids usable as one path segment (tool_use ids are `[A-Za-z0-9_-]`): other characters become `_`, and a
 * leading dot gets a `_` prefix so that no id can name `.` or `..`.
 */
function safeName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_.-]/g, '_');
  return cleaned === '' || cleaned.startsWith('.') ? `_${cleaned}` : cleaned;
}

export interface FileToolResultStoreOptions {
  /** Root of the session directories; default `.turnloop/sessions` (relative to the working directory). */
  root?: string;
  /**
   * The directory the store must stay in: no directory between it and a stored file may be a symlink. Default: the
   * working directory for a relative root, the root's parent for an absolute one.
   */
  workspace?: string;
}

/** Creates (or checks) each directory from `anchor` down to `dir`, refusing any component that is not a real directory. */
async function ensureRealDirs(anchor: string, dir: string, pointer: string): Promise<string> {
  const realAnchor = await realpath(anchor);
  let current = realAnchor;
  for (const part of relative(anchor, dir).split(sep).filter((p) => p !== '')) {
    if (part === '..') throw new StoreOutsideWorkspaceError(pointer, 'the path leaves its workspace');
    current = join(current, part);
    let stats = await lstat(current).catch(() => null);
    if (!stats) {
      await mkdir(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      stats = await lstat(current);
    }
    if (stats.isSymbolicLink()) throw new StoreOutsideWorkspaceError(pointer, `${current} is a symbolic link`);
    if (!stats.isDirectory()) throw new StoreOutsideWorkspaceError(pointer, `${current} is not a directory`);
  }
  return current;
}

/** Writes `content` to `file` inside `anchor` without following any symlink (see the module invariants). */
async function writeConfined(anchor: string, file: string, content: string): Promise<void> {
  const dir = await ensureRealDirs(anchor, dirname(file), file);
  const target = join(dir, file.slice(dirname(file).length + 1));
  const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600).catch(
    (error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOOP' ? new StoreOutsideWorkspaceError(file, 'the file is a symbolic link') : error;
    },
  );
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new StoreOutsideWorkspaceError(file, 'the file is not a regular file');
    const [realDir, there] = [await realpath(dir), await stat(target)];
    if (realDir !== dir || there.dev !== opened.dev || there.ino !== opened.ino) {
      throw new StoreOutsideWorkspaceError(file, 'the directory changed while the file was opened');
    }
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Stores results as `<root>/<sessionId>/tool-results/<toolUseId>.txt`. */
export function createFileToolResultStore(options: FileToolResultStoreOptions = {}): ToolResultStore {
  const root = options.root ?? join('.turnloop', 'sessions');
  const anchorOf = () => resolve(options.workspace ?? (isAbsolute(root) ? dirname(resolve(root)) : process.cwd()));
  const pointerFor = (sessionId: string, toolUseId: string) =>
    join(root, safeName(sessionId), 'tool-results', `${safeName(toolUseId)}.txt`);
  return {
    pointerFor,
    async put(sessionId, toolUseId, content) {
      const path = pointerFor(sessionId, toolUseId);
      const anchor = anchorOf();
      await writeConfined(anchor, resolve(path), content);
      return path;
    },
  };
}

export interface MemoryToolResultStore extends ToolResultStore {
  /** Stored texts by pointer. */
  readonly entries: Map<string, string>;
}

/** An in-memory store for tests; pointers look like `memory://<sessionId>/<toolUseId>`. */
export function createMemoryToolResultStore(): MemoryToolResultStore {
  const entries = new Map<string, string>();
  const pointerFor = (sessionId: string, toolUseId: string) => `memory://${sessionId}/${toolUseId}`;
  return {
    entries,
    pointerFor,
    async put(sessionId, toolUseId, content) {
      const pointer = pointerFor(sessionId, toolUseId);
      entries.set(pointer, content);
      return pointer;
    },
  };
}
