/**
 * One writer per session log: an exclusive lock file beside the log (`<log>.lock`, created with `O_EXCL`), taken
 * by every writer before it reads what it will append to, and removed when it is done. Two `resume`s of one log at
 * once used to interleave their lines ("expected event index 13, got 10" afterwards); the second now stops at once
 * with a message naming the log and the process that holds it.
 *
 * Invariants:
 * - The lock file holds `{pid, host, since}` of its holder. A lock whose holder is a process of this host that no
 *   longer exists (a crash, `kill -9`) is stale: it is taken over, so a crash never locks a log forever.
 * - Locks are released by `release()` and, should a writer forget, when the process exits, after every writer's
 *   held lines are written (`exit-tasks.ts`).
 * - Not a lock against other hosts writing the same file over a network file system at the same moment, nor
 *   against writers that do not take it (another program appending by hand).
 */
import { closeSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { addExitTask, removeExitTask } from './exit-tasks.ts';

export interface LogLock {
  /** The absolute path of the locked log. */
  readonly log: string;
  release(): void;
}

/** Another writer holds the log. Bad input for the CLI (exit 2): nothing was read or written. */
export class LogLockedError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    readonly log: string,
    readonly holder: { pid?: number; host?: string; since?: string },
  ) {
    const who = holder.pid === undefined ? 'another process' : `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}${holder.since ? ` (since ${holder.since})` : ''}`;
    super('LOG_LOCKED', `${log} is being written by ${who}: one writer per log. Wait for it to finish; if that process is gone, delete ${log}.lock`);
  }
}


/** Deletes a lock file, gone already or not (`unlinkSync`: one system call, where `rmSync` makes two). */
function removeLockFile(lockFile: string): void {
  try {
    unlinkSync(lockFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function readHolder(lockFile: string): { pid?: number; host?: string; since?: string } | null {
  try {
    const data = JSON.parse(readFileSync(lockFile, 'utf8')) as Record<string, unknown>;
    return {
      ...(typeof data.pid === 'number' ? { pid: data.pid } : {}),
      ...(typeof data.host === 'string' ? { host: data.host } : {}),
      ...(typeof data.since === 'string' ? { since: data.since } : {}),
    };
  } catch (error) {
    // Gone meanwhile (released): no holder. Unreadable or half written: held by someone we cannot name.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : {};
  }
}

/** Whether a lock's holder is a process of this host that no longer runs. */
function isStale(holder: { pid?: number; host?: string }): boolean {
  if (holder.pid === undefined || holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes the lock of the log at `path`, or throws `LogLockedError` when another writer (this process included)
 * holds it. File system errors (a missing directory) are thrown as they are: the caller reports the path.
 *
 * @example
 * const lock = lockLog('run.jsonl');
 * try { append(...) } finally { lock.release(); }
 */
export function lockLog(path: string): LogLock {
  const log = resolve(path);
  const lockFile = `${log}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockFile, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockFile);
      if (holder === null) continue;
      if (!isStale(holder)) throw new LogLockedError(log, holder);
      rmSync(lockFile, { force: true });
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
    } finally {
      closeSync(fd);
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      removeExitTask('release', release);
      removeLockFile(lockFile);
    };
    // At exit, after every writer's held lines (`exit-tasks.ts`).
    addExitTask('release', release);
    return { log, release };
  }
  throw new LogLockedError(log, readHolder(lockFile) ?? {});
}
