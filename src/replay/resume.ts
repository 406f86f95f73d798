/**
 * Resume: continue a crashed or paused run from the end of its session log, with live effects.
 *
 * Steps: replay the log (verified) to its last state; work out what that state waits for
 * (`PendingEffectTracker`); feed the prelude events (recorded like any event); then hand the state and the
 * pending effects to `runLoop()` (`resumeFrom`), which executes them and goes on as a normal run.
 *
 * Invariants:
 * - The log stays one log: when it is a file, the resumed steps are appended to it (after cutting off a
 *   truncated last line), continuing its indexes and hash chain, so the whole log replays as one run.
 * - A finished run is not resumed: its terminal is returned and nothing runs.
 */
import { appendFileSync, closeSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { resolve } from 'node:path';
import { runLoop } from '../drivers/run-loop.ts';
import type { LoopOptions } from '../runtime/query-options.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { Terminal } from '../data/outcomes.ts';
import { step } from '../reducer/step.ts';
import { PendingEffectTracker } from './pending-effects.ts';
import { loadSessionLog, type ParsedSessionLog, type SessionLogSource } from './parse-session-log.ts';
import { foldSessionLog, replayConfig, type FoldedStep } from './replay.ts';
import { lockLog, type LogLock } from './log-lock.ts';
import { createSessionRecorder, type RecordTarget, type SessionRecorder } from './session-recorder.ts';

export interface ResumeOptions extends Omit<LoopOptions, 'config' | 'messages' | 'prompt'> {
  /** Where the resumed steps are recorded: default the log file itself (when the log is a path); false = nowhere. */
  record?: RecordTarget | false;
  /** A second place the resumed steps are recorded to, line for line (the live inspector's stream). */
  alsoRecordTo?: RecordTarget;
  allowVersionSkew?: boolean;
}

/**
 * Makes the log file end right after its last complete line, so appended lines start a line of their own: cuts
 * off what the parser dropped (a torn last line, or version-3 lines no hash covers) and adds the newline a last
 * line written without one lacks.
 */
function endWithCompleteLine(path: string, log: ParsedSessionLog): void {
  if (log.truncated) truncateSync(path, log.validBytes);
  const size = statSync(path).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, last, 0, 1, size - 1);
  } finally {
    closeSync(fd);
  }
  if (last[0] !== 0x0a) appendFileSync(path, '\n');
}

/**
 * @example
 * for await (const item of resumeFromLog('session.jsonl', { tools, deps })) console.log(item.type);
 */
export async function* resumeFromLog(source: SessionLogSource, options: ResumeOptions = {}): AsyncGenerator<QueryItem, Terminal, undefined> {
  // The log is locked before it is read: a second writer stops here, not after both read the same end.
  const appendsToSource = typeof source === 'string' && (options.record === undefined || (typeof options.record === 'string' && resolve(options.record) === resolve(source)));
  const lock = appendsToSource ? lockLog(source) : null;
  // Released here unless the recorder took it over (it releases it when it closes).
  const ownership = { recorderHasLock: false };
  try {
    return yield* resumeLocked(source, options, lock, ownership);
  } finally {
    if (!ownership.recorderHasLock) lock?.release();
  }
}

async function* resumeLocked(source: SessionLogSource, options: ResumeOptions, lock: LogLock | null, ownership: { recorderHasLock: boolean }): AsyncGenerator<QueryItem, Terminal, undefined> {
  const log = loadSessionLog(source);
  const config = replayConfig(log.header);
  const tracker = new PendingEffectTracker();
  let last: FoldedStep | null = null;
  for (const folded of foldSessionLog(log, { allowVersionSkew: options.allowVersionSkew })) {
    tracker.observe(folded.effects);
    last = folded;
  }
  const final = last as FoldedStep;
  if (final.state.status === 'done') return final.state.context.terminal as Terminal;

  const { record, alsoRecordTo, allowVersionSkew: _skew, onStep, ...queryOptions } = options;
  const target = record === undefined ? (typeof source === 'string' ? source : false) : record;
  if (typeof target === 'string' && typeof source === 'string' && resolve(target) === resolve(source)) endWithCompleteLine(source, log);
  const continueFrom = { index: final.index, hash: final.hash, version: log.header.version };
  const recorders: SessionRecorder[] = [
    ...(target === false ? [] : [createSessionRecorder(target, { config, continueFrom, ...(lock && typeof target === 'string' && resolve(target) === lock.log ? ((ownership.recorderHasLock = true), { lock }) : {}) })]),
    ...(alsoRecordTo === undefined ? [] : [createSessionRecorder(alsoRecordTo, { config, continueFrom })]),
  ];
  const recorder: SessionRecorder | null = recorders.length === 0 ? null : recorders.length === 1 ? recorders[0]! : teeRecorder(recorders);

  const pending = tracker.pendingFor(final.state);
  let state = final.state;
  let index = final.index;
  const preludeEffects: Effect[] = [];
  for (const event of pending.prelude) {
    const result = step(state, event, config);
    state = result.state;
    index += 1;
    recorder?.({ index, event, state, effects: result.effects });
    onStep?.({ index, event, state, effects: result.effects });
    preludeEffects.push(...result.effects);
  }
  try {
    return yield* runLoop({
      ...queryOptions,
      config,
      resumeFrom: { state, effects: [...preludeEffects, ...pending.effects], nextIndex: index + 1 },
      onStep: (observed) => {
        recorder?.(observed);
        onStep?.(observed);
      },
    });
  } finally {
    recorder?.close();
  }
}

/** One observer that feeds every recorder and closes them all. */
function teeRecorder(recorders: SessionRecorder[]): SessionRecorder {
  const tee = ((step: Parameters<SessionRecorder>[0]) => {
    for (const recorder of recorders) recorder(step);
  }) as SessionRecorder;
  return Object.defineProperties(tee, {
    lines: { get: () => recorders[0]!.lines },
    bytes: { get: () => recorders[0]!.bytes },
    error: { get: () => recorders.find((r) => r.error)?.error ?? null },
    lastHash: { get: () => recorders[0]!.lastHash },
    close: { value: () => recorders.forEach((r) => r.close()) },
  });
}
