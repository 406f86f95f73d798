/**
 * Where an SDK session lives: `.turnloop/sessions/<session id>.jsonl` under the working directory, the same place
 * `turnloop run` records to, so `turnloop replay`, `viz` and `--inspect` read it like any other log. One file per
 * session: each turn's run starts from the whole conversation so far (its params carry it), so the log of the
 * latest turn holds the conversation and is what a later `--resume` continues. Kept apart from `src/replay/`
 * on purpose: resuming a *finished* conversation is a new turn, not the crash recovery `resumeFromLog` does.
 *
 * Invariants (no sequence of processes loses a session log):
 * - A process that will write a session holds its session lock, `<id>.lock` (`claimSession`, `log-lock.ts`), from
 *   before it reads or removes anything of that session until it exits; a second process for the same id stops at
 *   once (`SessionInUseError`, exit 2) with the log untouched.
 * - A new session (`--session-id X`, a fork) never takes an id whose log exists: the real executable refuses an id
 *   in use, and so do we, before anything is written.
 * - A turn replaces the previous turn's log only under the session lock and the log's own lock (`startTurnLog`).
 * - The sessions folder is reached without following a symlink (`.turnloop` or `.turnloop/sessions` linked out of
 *   the workspace is refused, `SessionStoreOutsideError`), as the tool-result store does.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { lockLog, LogLockedError, type LogLock } from '../replay/log-lock.ts';
import type { Message } from '../messages/types.ts';
import type { LoopState } from '../data/state.ts';

export const SESSIONS_DIR = '.turnloop/sessions';

export class SessionNotFoundError extends TurnloopError {
  constructor(message: string) {
    super('SDK_SESSION_NOT_FOUND', message);
    this.name = 'SessionNotFoundError';
  }
}

/** A session id another process holds, or a new session's id whose log exists. Bad input: exit 2. */
export class SessionInUseError extends TurnloopError {
  readonly exitCode = 2;
  constructor(message: string) {
    super('SDK_SESSION_IN_USE', message);
    this.name = 'SessionInUseError';
  }
}

/** The sessions folder would be reached through a symlink (out of the workspace). Exit 2. */
export class SessionStoreOutsideError extends TurnloopError {
  readonly exitCode = 2;
  constructor(path: string, reason: string) {
    super('SDK_SESSION_STORE_OUTSIDE', `session log: refusing ${path}: ${reason}; the session log stays inside the working directory`);
    this.name = 'SessionStoreOutsideError';
  }
}

/**
 * The real sessions folder: each of `.turnloop` and `.turnloop/sessions` under the real `cwd` checked without
 * following links (and created when `create`); undefined when it does not exist and `create` is false.
 */
export function realSessionsDir(cwd: string, options: { create: boolean }): string | undefined {
  let current = realpathSync(cwd);
  for (const part of SESSIONS_DIR.split('/')) {
    current = join(current, part);
    let stats = lstatSync(current, { throwIfNoEntry: false });
    if (!stats) {
      if (!options.create) return undefined;
      try {
        mkdirSync(current);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      stats = lstatSync(current);
    }
    if (stats.isSymbolicLink()) throw new SessionStoreOutsideError(current, 'it is a symbolic link');
    if (!stats.isDirectory()) throw new SessionStoreOutsideError(current, 'it is not a directory');
  }
  return current;
}

export function sessionsDir(cwd: string): string {
  return resolve(cwd, SESSIONS_DIR);
}

export function sessionLogPath(cwd: string, sessionId: string): string {
  return join(sessionsDir(cwd), `${sessionId}.jsonl`);
}

/** A session id names one file in the sessions folder: no separators, no dots leading out of it. */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes('..');
}

/** The id of the most recently written session log under `cwd`, or undefined when there is none. */
export function latestSessionId(cwd: string): string | undefined {
  const dir = realSessionsDir(cwd, { create: false });
  if (dir === undefined) return undefined;
  const logs = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => ({ id: name.slice(0, -'.jsonl'.length), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  return logs[0]?.id;
}

/**
 * The conversation a run's state holds: the carried history plus what the last iteration collected and had not
 * merged yet when the run ended (the final answer, the results of tools that ran before a stop).
 */
export function conversationOf(state: LoopState): Message[] {
  const { messages, iter } = state.context;
  const known = new Set(messages.map((m) => m.uuid));
  return [...messages, ...[...iter.assistantMessages, ...iter.toolResults].filter((m) => !known.has(m.uuid))];
}

/**
 * The conversation a finished session ended with (its last run's final messages), for the next turn. Replay (the
 * log parser and its schemas) loads only here: a new session does not pay for it.
 */
export async function loadConversation(cwd: string, sessionId: string): Promise<Message[]> {
  if (!isSafeSessionId(sessionId)) throw new SessionNotFoundError(`--resume: '${sessionId}' is not a session id`);
  // Called for its refusal alone: a sessions folder reached through a symlink is never read.
  realSessionsDir(cwd, { create: false });
  const path = sessionLogPath(cwd, sessionId);
  if (!existsSync(path)) throw new SessionNotFoundError(`--resume: no session ${sessionId} (no ${path})`);
  const { replay } = await import('../replay/replay.ts');
  const replayed = replay(path);
  if (replayed.terminal === null) {
    throw new SessionNotFoundError(`--resume: session ${sessionId} did not finish (its log ends mid-run); continue it with 'turnloop resume ${path}'`);
  }
  return conversationOf(replayed.finalState);
}

export interface SessionClaim {
  release(): void;
}

/**
 * Takes the session lock of `sessionId` for this process (see the module invariants). `fresh`: a new session, whose
 * id must not have a log yet. Throws `SessionInUseError` (exit 2) when another process holds the id or a fresh id
 * has a log; nothing is read, written or removed then.
 */
export function claimSession(cwd: string, sessionId: string, options: { fresh: boolean }): SessionClaim {
  const dir = realSessionsDir(cwd, { create: true })!;
  let lock: LogLock;
  try {
    lock = lockLog(join(dir, sessionId));
  } catch (error) {
    if (!(error instanceof LogLockedError)) throw error;
    const { pid, host } = error.holder;
    throw new SessionInUseError(`session ${sessionId} is in use by ${pid === undefined ? 'another process' : `process ${pid}${host ? ` on ${host}` : ''}`}: one process per session. Wait for it to end, or use another --session-id`);
  }
  const log = join(dir, `${sessionId}.jsonl`);
  if (options.fresh && lstatSync(log, { throwIfNoEntry: false })) {
    lock.release();
    throw new SessionInUseError(`Session ID ${sessionId} is already in use (${log} exists): pass --resume ${sessionId} to continue it, or choose another id`);
  }
  return { release: () => lock.release() };
}

/**
 * Makes way for a turn's log at `logPath` (a session's `sessionLogPath`), called under the session lock: the
 * folder is checked again (no symlink), and the previous turn's log, whose conversation the new run's params
 * carry, is removed under the log's own lock, so a writer of the log itself (`turnloop resume`) is never cut off.
 */
export function startTurnLog(cwd: string, logPath: string): void {
  realSessionsDir(cwd, { create: true });
  const lock = lockLog(logPath);
  try {
    rmSync(logPath, { force: true });
  } finally {
    lock.release();
  }
}
