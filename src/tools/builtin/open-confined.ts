/**
 * Opening a file of the root once, and working on the handle from then on, so that nothing swapped in after the
 * path was checked (a symlink, a FIFO) is read or written.
 *
 * Invariants:
 * - The path is confined first (`confinePath`: lexical and real path inside the real root).
 * - The open follows no symlink in the last component (`O_NOFOLLOW`) and never blocks (`O_NONBLOCK`: a FIFO with no
 *   writer would otherwise hold a thread-pool thread forever, past any abort).
 * - What was opened must be a regular file (a directory, FIFO, device or socket is `NotRegularFileError`), and its
 *   device and inode must equal those of the confined real path, resolved again AFTER the open: a directory on the
 *   way swapped for a symlink out of the root either changes the real path (refused) or the inode (refused).
 * - `verifyStillConfined` repeats that check; writers call it right before writing.
 */
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { confinePath, isInside, PathOutsideRootError, type ConfinedPath } from './confine-path.ts';
import { TurnloopError } from '../../errors/turnloop-error.ts';

export class NotRegularFileError extends TurnloopError {
  constructor(
    readonly requested: string,
    readonly kind: string,
  ) {
    super('NOT_REGULAR_FILE', `${requested || '.'} is ${kind}, not a regular file; only regular files can be read or edited.`);
    this.name = 'NotRegularFileError';
  }
}

export interface ConfinedFile {
  handle: FileHandle;
  stats: Stats;
  path: ConfinedPath;
}

/** What a non-regular file is, in words. */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Throws unless `handle` is still the file at `path.absolute` and that file's real path lies inside the root. */
export async function verifyStillConfined(file: Pick<ConfinedFile, 'handle' | 'path'>, requested: string): Promise<Stats> {
  const opened = await file.handle.stat();
  let now: string;
  try {
    now = await realpath(file.path.absolute);
  } catch {
    throw new PathOutsideRootError(requested);
  }
  if (!isInside(file.path.realRoot, now)) throw new PathOutsideRootError(requested);
  const there = await stat(now);
  if (there.dev !== opened.dev || there.ino !== opened.ino) throw new PathOutsideRootError(requested);
  return opened;
}

/** Opens a regular file of the root for reading (or reading and writing), or throws a typed error. */
export async function openConfinedFile(root: string, requested: string, mode: 'read' | 'write' = 'read'): Promise<ConfinedFile> {
  const path = await confinePath(root, requested);
  const flags = (mode === 'write' ? constants.O_RDWR : constants.O_RDONLY) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await open(path.absolute, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last component became a symlink after it was confined.
    if (code === 'ELOOP') throw new PathOutsideRootError(requested);
    if (code === 'EISDIR') throw new NotRegularFileError(path.relative, 'a directory');
    if (code === 'ENXIO') throw new NotRegularFileError(path.relative, 'a FIFO or socket with nothing on the other end');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path.relative, fileKind(stats));
    await verifyStillConfined({ handle, path }, requested);
    return { handle, stats, path };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads at most `maxBytes` from the start of an opened file; null when it is longer. */
export async function readUpTo(handle: FileHandle, maxBytes: number, signal?: AbortSignal): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) return null;
    chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
  }
}
