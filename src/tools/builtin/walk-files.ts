/**
 * Lists the files under a directory inside the root, depth first in name order (deterministic output).
 * Invariants: never leaves the root (symlinks are followed only when their real path stays inside it, and
 * symlinked directories are not entered, which also rules out cycles); skips `.git` and `node_modules`; yields
 * regular files only (no FIFOs, devices or sockets); stops with the signal's reason once `signal` aborts.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, toPosix } from './confine-path.ts';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

export interface WalkedFile {
  absolute: string;
  /** Relative to the real root, `/`-separated. */
  relative: string;
}

export async function* walkFiles(realRoot: string, startDir: string, signal?: AbortSignal): AsyncGenerator<WalkedFile, void, undefined> {
  signal?.throwIfAborted();
  const entries = (await readdir(startDir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    signal?.throwIfAborted();
    const absolute = path.join(startDir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walkFiles(realRoot, absolute, signal);
    } else if (entry.isFile()) {
      yield { absolute, relative: toPosix(path.relative(realRoot, absolute)) };
    } else if (entry.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => null);
      if (target && isInside(realRoot, target) && (await stat(target).catch(() => null))?.isFile()) {
        yield { absolute, relative: toPosix(path.relative(realRoot, absolute)) };
      }
    }
  }
}

/** The files to search for a path that is either one file or a directory. */
export async function* filesAt(realRoot: string, absolute: string, signal?: AbortSignal): AsyncGenerator<WalkedFile, void, undefined> {
  const stats = await lstat(absolute);
  if (stats.isDirectory()) yield* walkFiles(realRoot, absolute, signal);
  else if (stats.isFile()) yield { absolute, relative: toPosix(path.relative(realRoot, absolute)) };
}
