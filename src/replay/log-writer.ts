/**
 * Where the recorder's lines go: a file (group commit) or any `{ write(text) }` (each line as it is made).
 *
 * Group commit, for a file: a line is held in memory until one of these comes first, then everything held goes
 * out in one `writeSync` (one system call instead of one per line):
 * - `commit()`: the recorder calls it for a step that calls the model or starts work that may change the world
 *   (see `session-recorder.ts`), before the interpreter starts it, so no such work runs ahead of the log;
 * - 64 KiB held;
 * - the next turn of Node's event loop (`setImmediate`): the process never waits for I/O or a timer with a line
 *   held, so a crash loses only lines of the synchronous stretch it interrupted;
 * - the process exiting (before any log lock is released: `exit-tasks.ts`), and `close()`.
 * After `close()` nothing more is written (the descriptor's number may belong to another file by then): a later
 * line or commit is reported once through `onError` (`RECORDER_STEP_ORDER`), and a second `close()` does nothing.
 * With `fsync: true` every line is written and fsynced at once (it survives an OS crash too).
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { asError, TurnloopError } from '../errors/turnloop-error.ts';
import { addExitTask, removeExitTask } from './exit-tasks.ts';

export interface LogWriter {
  /** Appends a line; `commit()` (or the writer itself, soon) makes it durable. */
  write(text: string): void;
  /** Says that `pull` has something: it is asked for its text at the next commit (same schedule as `write`). */
  touch(): void;
  /** Writes every held line now. */
  commit(): void;
  close(): void;
}

/** Characters held at most before a write, whatever else happens. */
const HOLD_LIMIT = 64 * 1024;

/**
 * @param pull called at every commit for text not yet handed to `write` (the recorder's pending steps, turned into
 *   lines together: one tight loop per commit instead of work between every two steps of the interpreter), as text
 *   or as its UTF-8 bytes, which are written before `pull` is called again (the recorder reuses their buffer).
 * @param onError called once with the first write failure; nothing is written after it.
 */
export function openLogWriter(
  target: string | { write(text: string): unknown },
  options: { fsync: boolean; onError: (error: Error) => void; pull?: () => string | Uint8Array },
): LogWriter {
  if (typeof target !== 'string') {
    const commit = () => {
      const pulled = options.pull?.() ?? '';
      const text = typeof pulled === 'string' ? pulled : Buffer.from(pulled.buffer, pulled.byteOffset, pulled.byteLength).toString();
      if (text !== '') target.write(text);
    };
    return { write: (text) => void target.write(text), touch: commit, commit, close: commit };
  }
  const fd = openSync(target, 'a');
  let held = '';
  let scheduled: ReturnType<typeof setImmediate> | null = null;
  let failed = false;
  // After `close()` the descriptor's number may belong to another file the process opened since: nothing more is
  // written through it (and it is not closed twice); the first attempt is reported.
  let closed = false;
  const refuseClosed = () => {
    if (failed) return;
    failed = true;
    options.onError(new TurnloopError('RECORDER_STEP_ORDER', `session log ${target}: a step after close(); nothing more is written to it`));
  };
  // Whether `commit` is an exit task: put there by the first line held after a turn of the event loop and left there
  // until that turn (`onImmediate`) or `close()`, not taken out and put back at every commit in between (a run's
  // synchronous stretch commits once per model call); at exit, a commit with nothing held writes nothing.
  let registered = false;
  const unregister = () => {
    if (registered) {
      removeExitTask('flush', commit);
      registered = false;
    }
  };
  // A commit leaves a pending `setImmediate` in place (it then finds nothing to write): clearing it and scheduling
  // a new one on the next turn's first line cost more than the empty commit it saves.
  const commit = () => {
    if (closed) return refuseClosed();
    const pulled = options.pull?.() ?? '';
    const text = typeof pulled === 'string' ? held + pulled : held;
    held = '';
    const bytes = typeof pulled === 'string' ? null : pulled;
    if ((text === '' && (bytes === null || bytes.length === 0)) || failed) return;
    try {
      // Held text (the header) and pulled bytes are written in order; both are there only when a header and a
      // step's lines meet in one commit, which the recorder never makes (it commits the header at once).
      if (text !== '') writeSync(fd, text);
      if (bytes !== null && bytes.length > 0) writeSync(fd, bytes);
      if (options.fsync) fsyncSync(fd);
    } catch (caught) {
      failed = true;
      options.onError(asError(caught));
    }
  };
  const onImmediate = () => {
    scheduled = null;
    commit();
    unregister();
  };
  const touch = () => {
    if (closed) return refuseClosed();
    if (options.fsync) return commit();
    if (!registered) {
      registered = true;
      addExitTask('flush', commit);
    }
    if (scheduled === null) scheduled = setImmediate(onImmediate);
  };
  return {
    write(text) {
      if (closed) return refuseClosed();
      held += text;
      if (held.length > HOLD_LIMIT) return commit();
      touch();
    },
    touch,
    commit,
    close() {
      if (closed) return;
      commit();
      unregister();
      if (scheduled !== null) clearImmediate(scheduled);
      scheduled = null;
      closed = true;
      closeSync(fd);
    },
  };
}
