/**
 * Writing a CLI output file all at once or not at all: the text goes to a temporary file beside the target, which
 * is then renamed over it, so a failure (no such directory, no permission, a full disk) never leaves half a file.
 * Failures are an `OutputFileError` (exit code 2) naming the file and the reason.
 *
 * Invariant: an output file is a regular file or a new path. Anything else at the path (a device such as
 * `/dev/null`, a FIFO, a socket, a directory, or a symlink to one) is refused before any work and again right
 * before the rename, so a device node is never replaced by a file (as root, `--witness /dev/null` would otherwise
 * replace the system's /dev/null). A path under a file is refused by name, never as a raw ENOTDIR.
 */
import { closeSync, fsyncSync, mkdirSync, type Stats, openSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileKind } from '../tools/builtin/open-confined.ts';
import { SessionLogExistsError } from '../replay/errors.ts';
import { SESSION_LOG_FORMAT } from '../replay/session-log-schema.ts';
import { CliFileError, shownPath } from './read-input.ts';

export class OutputFileError extends CliFileError {
  constructor(file: string, problem: string) {
    super('OUTPUT_FILE', file, problem, `${file}: cannot write it: ${problem}`);
  }
}

/** Why a write failed, in words (the errno code for anything unusual). */
export function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOTDIR') return 'a part of its path is not a directory';
  return code ?? String(error);
}

/**
 * Checks, before any work starts, that `file` (relative to `cwd`) can be created or appended to: its directory
 * exists and it is not a directory itself. For outputs written as the work goes (a session log).
 */
export function checkOutputPath(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  const shown = shownPath(file, cwd);
  // A file in the middle of the path makes `stat` fail with ENOTDIR (not "no entry"): that is an answer too.
  const stat = (at: string) => {
    try {
      return statSync(at, { throwIfNoEntry: false });
    } catch (error) {
      throw new OutputFileError(shown, writeFailureReason(error));
    }
  };
  if (stat(path)?.isDirectory()) throw new OutputFileError(shown, 'it is a directory');
  const parent = stat(dirname(path));
  if (!parent) throw new OutputFileError(shown, 'its directory does not exist');
  if (!parent.isDirectory()) throw new OutputFileError(shown, 'a part of its path is not a directory');
  return path;
}

/** Whether the file begins as a turnloop session log does (its header's first members). */
function startsLikeSessionLog(path: string): boolean {
  const head = Buffer.alloc(64);
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString().startsWith(`{"kind":"header","format":"${SESSION_LOG_FORMAT}"`);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * `checkOutputPath` for a session log a command records to (`--record`), which starts empty: a file that already
 * holds data (a log, or anything else the user had) is refused unless `force`, and then emptied here, so nothing is
 * overwritten by surprise. Devices (`/dev/null`) are left as they are.
 */
export function prepareRecordPath(file: string, cwd: string, options: { force: boolean }): string {
  const path = checkOutputPath(file, cwd);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats?.isFile() && stats.size > 0) {
    if (!options.force && startsLikeSessionLog(path)) throw new SessionLogExistsError(path);
    if (!options.force) throw new OutputFileError(shownPath(file, cwd), `it already holds ${stats.size} bytes; pass --force to overwrite it, or record to a new path`);
    try {
      writeFileSync(path, '');
    } catch (error) {
      throw new OutputFileError(shownPath(file, cwd), writeFailureReason(error));
    }
  }
  return path;
}

/**
 * Creates the output directory `dir` (relative to `cwd`) and any missing parents, one at a time: a recursive
 * `mkdir` can spin forever on some file systems (`/proc`), and each step's failure names its reason.
 */
export function makeOutputDir(dir: string, cwd: string): string {
  const path = resolve(cwd, dir);
  const shown = shownPath(dir, cwd);
  // A file in the middle of the path makes `stat` fail with ENOTDIR: named, like every other reason.
  const stat = (at: string) => {
    try {
      return statSync(at, { throwIfNoEntry: false });
    } catch (error) {
      throw new OutputFileError(shown, writeFailureReason(error));
    }
  };
  const missing: string[] = [];
  let at = path;
  for (let stats = stat(at); !stats; stats = stat(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
    at = dirname(at);
  }
  const existing = stat(at);
  if (existing && !existing.isDirectory()) throw new OutputFileError(shown, `${at} is not a directory`);
  for (const part of missing) {
    try {
      mkdirSync(part);
    } catch (error) {
      throw new OutputFileError(shown, `cannot create ${part} (${writeFailureReason(error)})`);
    }
  }
  return path;
}

/** Throws unless `path` is a regular file (a symlink is judged by what it leads to) or a new path in an existing directory. */
function checkOutputTarget(path: string, shown: string): void {
  let existing: Stats | undefined;
  try {
    existing = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new OutputFileError(shown, writeFailureReason(error));
  }
  if (existing && !existing.isFile()) {
    if (existing.isDirectory()) throw new OutputFileError(shown, 'it is a directory');
    const kind = fileKind(existing);
    throw new OutputFileError(shown, `it is ${kind === 'not a regular file' ? kind : `${kind}, not a regular file`}; write to a regular file or a new path`);
  }
  if (existing) return;
  let parent: Stats | undefined;
  try {
    parent = statSync(dirname(path), { throwIfNoEntry: false });
  } catch (error) {
    throw new OutputFileError(shown, writeFailureReason(error));
  }
  if (!parent) throw new OutputFileError(shown, 'its directory does not exist');
  if (!parent.isDirectory()) throw new OutputFileError(shown, 'a part of its path is not a directory');
}

/**
 * Checks, before the work that produces it starts, that `file` (relative to `cwd`) can be written by
 * `writeOutputFile`; returns the absolute path.
 */
export function checkOutputFile(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  checkOutputTarget(path, shownPath(file, cwd));
  return path;
}

/** Writes `text` to `file` (relative to `cwd`) atomically; returns the absolute path. */
export function writeOutputFile(file: string, cwd: string, text: string): string {
  const path = resolve(cwd, file);
  const shown = shownPath(file, cwd);
  checkOutputTarget(path, shown);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, 'wx', 0o644);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    // Again right before the rename: a device put there meanwhile is refused, never replaced.
    checkOutputTarget(path, shown);
    renameSync(temp, path);
    return path;
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(temp, { force: true });
    if (error instanceof OutputFileError) throw error;
    throw new OutputFileError(shown, writeFailureReason(error));
  }
}
