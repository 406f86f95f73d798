/**
 * Where an SDK session lives: `.turnloop/sessions/<session id>.jsonl` under the working directory, the same place
 * `turnloop run` records to, so `turnloop replay`, `viz` and `--inspect` read it like any other log. One file per
 * session: each turn's run starts from the whole conversation so far (its params carry it), so the log of the
 * latest turn holds the conversation and is what a later `--resume` continues. Kept apart from `src/replay/`
 * on purpose: resuming a *finished* conversation is a new turn, not the crash recovery `resumeFromLog` does.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';
import type { Message } from '../messages/types.ts';
import type { LoopState } from '../reducer/state.ts';
import { replay } from '../replay/replay.ts';

export const SESSIONS_DIR = '.turnloop/sessions';

export class SessionNotFoundError extends TurnloopError {
  constructor(message: string) {
    super('SDK_SESSION_NOT_FOUND', message);
    this.name = 'SessionNotFoundError';
  }
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
  const dir = sessionsDir(cwd);
  if (!existsSync(dir)) return undefined;
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

/** The conversation a finished session ended with (its last run's final messages), for the next turn. */
export function loadConversation(cwd: string, sessionId: string): Message[] {
  if (!isSafeSessionId(sessionId)) throw new SessionNotFoundError(`--resume: '${sessionId}' is not a session id`);
  const path = sessionLogPath(cwd, sessionId);
  if (!existsSync(path)) throw new SessionNotFoundError(`--resume: no session ${sessionId} (no ${path})`);
  const replayed = replay(path);
  if (replayed.terminal === null) {
    throw new SessionNotFoundError(`--resume: session ${sessionId} did not finish (its log ends mid-run); continue it with 'turnloop resume ${path}'`);
  }
  return conversationOf(replayed.finalState);
}
