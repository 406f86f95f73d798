/**
 * Recording: an `onStep` observer that appends a session log while a run goes on.
 *
 * Invariants:
 * - Append-only, one line per step, written synchronously (`writeSync` on a file opened in append mode) by group
 *   commit (`log-writer.ts`): every line is on disk before the next model call, before any work that may change
 *   the world outside the process starts (`commitsBefore`, `commit-points.ts`), and before the process next
 *   waits for I/O; a crash of the process loses at most the lines of the synchronous stretch it interrupted, none
 *   of which started such work. `fsync: true` writes and fsyncs every line at once (it also survives an OS crash;
 *   slower).
 * - A new session is never appended to a file that holds data (`SessionLogExistsError`, thrown at creation);
 *   only resume (`continueFrom`) appends. A file has one writer at a time: the recorder holds its lock
 *   (`log-lock.ts`, `LogLockedError` for a second writer) until `close()`.
 * - Step 0 (event null) writes the header; every later step writes one event line. Lines hold no state snapshot.
 * - New logs are version 3 (see `session-log-schema.ts`): the lines of one commit are hashed together, the hash
 *   on the last of them. A log continued by resume keeps the version it has.
 * - Everything written goes through the redactor first (header and events); the control summary that is hashed
 *   is redacted too, so live hashes equal replayed hashes (see `stable-hash.ts` for what the hash covers).
 * - The observer never throws (the interpreter does not expect it to): a write failure is kept in `error`,
 *   recording stops, and the failure is reported once: to `onError`, or else as a process warning
 *   (`process.emitWarning`, printed on stderr by default), so a log never ends short in silence.
 */
import { statSync } from 'node:fs';
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import { resolveConfig } from '../config/config.ts';
import type { RunObserverFactory, StepObserver } from '../runtime/query-options.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { SessionLogExistsError } from './errors.ts';
import { lockLog, type LogLock } from './log-lock.ts';
import { openLogWriter } from './log-writer.ts';
import { machineHash } from './machine-hash.ts';
import { createRedactor, secretValuesFromEnv, type RedactOptions, type Redactor } from './redact.ts';
import { ENGINE_VERSION, MAX_GROUP_LINES, SESSION_LOG_FORMAT, SESSION_LOG_VERSION, type SessionLogVersion } from './session-log-format.ts';
import type { StateDigest } from './session-log-schema.ts';
import { chainHash, controlDigest, controlDigestJson, controlSummary, lineHash, stableStringify } from './stable-hash.ts';
import { createGroupEncoder } from './group-encoder.ts';
import { loggedEventJsons } from './event-json.ts';
import { commitsBefore } from './commit-points.ts';
import { asError, TurnloopError } from '../errors/turnloop-error.ts';

/** Where a log goes: a file path (appended to) or anything with `write(text)`. */
export type RecordTarget = string | { write(text: string): unknown };

export interface SessionRecorderOptions {
  /** The run's config (full, or overrides of the defaults, exactly as given to `query()`). */
  config: LoopConfig | ConfigOverrides;
  /** The run's JSON params; when absent they are derived from the initial state (see `paramsFromInitialState`). */
  params?: LoopParams;
  redact?: RedactOptions;
  /** `fsync` after every line (survives an OS crash; costs ~1 ms per line on most disks). */
  fsync?: boolean;
  /** Continue an existing log (resume): no header; indexes and the hash chain go on from here, in its version. */
  continueFrom?: { index: number; hash: string; version?: SessionLogVersion };
  /** Told once when writing fails (recording stops there). Default: a process warning. Must not throw. */
  onError?: (error: Error) => void;
  /**
   * The lock of a file target, when the caller took it already (resume takes it before it reads the log it will
   * append to). Otherwise a file target is locked here (`log-lock.ts`); either way `close()` releases it.
   */
  lock?: LogLock;
}

export interface SessionRecorder extends StepObserver {
  /** Lines recorded so far (a file holds them all once the run waits, starts outside work, or ends). */
  readonly lines: number;
  /** Bytes recorded so far. */
  readonly bytes: number;
  /** Set when a write failed; recording stopped there. */
  readonly error: Error | null;
  /** The hash of the last line written. */
  readonly lastHash: string;
  close(): void;
}

/**
 * Inverse of `createInitialContext` for a recorder that was not given the params: the system prompt already
 * contains the system context, so that input is dropped to avoid adding it twice (the user context is kept in the
 * params: it is prepended to each request, never stored in the history).
 */
export function paramsFromInitialState(state: LoopState): LoopParams {
  const { systemContext: _s, ...params } = state.context.params;
  return { ...params, messages: state.context.messages, runId: state.context.runId, querySource: state.context.querySource };
}

/**
 * The control summary as hashed, as JSON text: only its free-text fields (terminal, abort reason) can carry a
 * secret, so only they go through the redactor (recorded hashes depend on exactly this). A text the redactor finds
 * clean as a whole is used as it is, so a step usually serialises its summary once.
 */
function redactedControlJson(state: LoopState, effects: readonly Effect[], redact: Redactor): string {
  const control = controlSummary(state, effects);
  const json = JSON.stringify(control);
  if (redact.isCleanJson(json)) return json;
  return JSON.stringify({ ...control, terminal: redact(control.terminal), iter: redact(control.iter) });
}

/**
 * Version 1. The hash of step 0: config, params and the control summary of the initial state. The machine fingerprint is
 * checked on its own (header), not chained, so a log replayed across allowed version skew is still verified.
 */
export function initialHashOf(config: LoopConfig, params: LoopParams, state: LoopState, effects: readonly Effect[], redact: Redactor): string {
  return chainHash(`${SESSION_LOG_FORMAT}/1`, stableStringify({ config, params }), redactedControlJson(state, effects, redact));
}

/** Version 1. The hash of an event line (see `stable-hash.ts`). `eventJson` is the logged (redacted) event text. */
export function eventHashOf(previous: string, eventJson: string, state: LoopState, effects: readonly Effect[], redact: Redactor): string {
  return chainHash(previous, eventJson, redactedControlJson(state, effects, redact));
}

/**
 * Version 1. The text of an event line: exactly `JSON.stringify({ kind, index, event, hash, at })`, assembled
 * around the event's JSON text, which the hash needed anyway.
 */
function eventLineTextV1(index: number, eventJson: string, hash: string, at: StateDigest): string {
  return `{"kind":"event","index":${JSON.stringify(index)},"event":${eventJson},"hash":${JSON.stringify(hash)},"at":${JSON.stringify(at)}}\n`;
}

/**
 * Versions 2 and 3. An event line up to its `hash` member: `{"kind":"event","index":…,"event":…,"at":…` (the
 * line is this, then `,"hash":"<hash>"}`, or `}` for a version-3 line that carries no hash), assembled around the
 * event's JSON text.
 */
export function eventLinePrefix(index: number, eventJson: string, state: LoopState): string {
  return `{"kind":"event","index":${index},"event":${eventJson},"at":${controlDigestJson(state)}`;
}

/** Versions 2 and 3. The seed of the chain, from the header line's bytes up to its `initialHash` member. */
export function headerHash(version: 2 | 3, headerPrefix: string): string {
  return lineHash(`${SESSION_LOG_FORMAT}/${version}`, headerPrefix);
}

/** A step waiting to become a line. */
interface RecordedStep {
  index: number;
  event: LoopEvent;
  state: LoopState;
  effects: readonly Effect[];
}

/** Steps queued at most before the writer is asked to commit, whatever else happens (bounds the queue and a group). */
const MAX_PENDING_STEPS = MAX_GROUP_LINES;

function holdsData(path: string): boolean {
  try {
    // No exception for a missing file (the usual case: a new log), which would cost more than the stat itself.
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat !== undefined && stat.isFile() && stat.size > 0;
  } catch {
    return false;
  }
}

function reportError(error: Error, target: RecordTarget, onError: ((error: Error) => void) | undefined): void {
  if (onError) return onError(error);
  const where = typeof target === 'string' ? ` to ${target}` : '';
  process.emitWarning(`session recording${where} stopped: ${error.message}`, { code: 'TURNLOOP_RECORDING_FAILED' });
}

/**
 * Creates an `onStep` observer that records the run to `target`.
 *
 * @example
 * const recorder = createSessionRecorder('run.jsonl', { config });
 * await runQuery({ prompt: 'hi', config, onStep: recorder });
 * recorder.close();
 */
export function createSessionRecorder(target: RecordTarget, options: SessionRecorderOptions): SessionRecorder {
  const config = resolveConfig(options.config ?? {});
  // Values of secret-named environment variables are masked too; they are never written (not even to the header).
  const redactOptions: RedactOptions = { secretValues: secretValuesFromEnv(process.env), ...options.redact };
  const redact = createRedactor(redactOptions);
  // The common events' texts hold only fixed words, known names and numbers: clean for the built-in check, but a
  // literal secret value or an extra pattern could still match them, so with either they are checked as any other.
  const checksCommon = (redactOptions.secretValues ?? []).some((value) => value.length > 0) || (redactOptions.patterns ?? []).length > 0;
  const patterns = (options.redact?.patterns ?? []).map((p) => (typeof p === 'string' ? { source: p, flags: 'g' } : { source: p.source, flags: p.flags }));
  let error: Error | null = null;
  const fail = (caught: unknown) => {
    if (error) return;
    error = asError(caught);
    reportError(error, target, options.onError);
  };
  // Steps not yet turned into lines: each step only queues itself, and the writer pulls their text when it commits
  // (before the next model call at the latest), so the work of a turn's lines runs in one tight loop instead of
  // between the interpreter's steps. States and events are immutable data, so nothing changes while they wait.
  let pending: RecordedStep[] = [];
  const version: SessionLogVersion = options.continueFrom?.version ?? SESSION_LOG_VERSION;
  // One writer per log: a second recorder of the same file stops here, before it writes anything.
  const lock = typeof target === 'string' ? (options.lock ?? lockLog(target)) : null;
  let writer: ReturnType<typeof openLogWriter>;
  try {
    // Appending is for resume only: a new session's header after another session's lines would break both.
    if (typeof target === 'string' && !options.continueFrom && holdsData(target)) throw new SessionLogExistsError(target);
    // A file's version-3 groups go out as bytes (`groupBytes`), anything else as text.
    const bytes = typeof target === 'string' && version === 3;
    writer = openLogWriter(target, { fsync: options.fsync === true, onError: fail, pull: bytes ? () => groupBytes() : () => linesOf() });
  } catch (error) {
    lock?.release();
    throw error;
  }
  let lines = 0;
  let bytes = 0;
  let lastHash = options.continueFrom?.hash ?? '';
  let nextIndex = options.continueFrom ? options.continueFrom.index + 1 : 0;
  const encoder = createGroupEncoder();

  /**
   * The lines of the pending steps (redacted, hashed in order), as one text; empties the queue. One commit group:
   * in version 3 its last line carries the hash of all of them; in version 2 every line carries its own.
   */
  const linesOf = (): string => {
    if (pending.length === 0 || error) return '';
    const steps = pending;
    pending = [];
    let text = '';
    try {
      if (version === 1) {
        for (const { index, event, state, effects } of steps) {
          const eventJson = redact.toJson(event);
          lastHash = eventHashOf(lastHash, eventJson, state, effects, redact);
          text += eventLineTextV1(index, eventJson, lastHash, controlDigest(state));
          lines += 1;
        }
      } else {
        // The lines made before a step that cannot be serialised still go out (hashed), as they would one by one.
        const { jsons, failure } = loggedEventJsons(steps, redact, checksCommon);
        let unhashed = '';
        for (let i = 0; i < jsons.length; i++) {
          const prefix = eventLinePrefix(steps[i].index, jsons[i], steps[i].state);
          if (version === 2 || i === jsons.length - 1) {
            lastHash = lineHash(lastHash, unhashed + prefix);
            text += `${unhashed}${prefix},"hash":"${lastHash}"}\n`;
            unhashed = '';
          } else {
            unhashed += `${prefix}}\n`;
          }
          lines += 1;
        }
        if (failure !== null) throw failure;
      }
    } catch (caught) {
      // Recording stops here; the lines made before the failing step still go out.
      fail(caught);
    }
    bytes += Buffer.byteLength(text);
    return text;
  };
  /**
   * Version 3 to a file: the pending steps' lines as one commit group, as the UTF-8 bytes the writer writes at once
   * (`group-encoder.ts`: encoded once, hashed on those bytes); the same bytes as `linesOf()` would give.
   */
  const groupBytes = (): Uint8Array | '' => {
    if (pending.length === 0 || error) return '';
    const steps = pending;
    pending = [];
    let jsons: string[];
    let failure: unknown;
    try {
      ({ jsons, failure } = loggedEventJsons(steps, redact, checksCommon));
    } catch (caught) {
      fail(caught);
      return '';
    }
    const count = jsons.length;
    let out: Uint8Array | '' = '';
    if (count > 0) {
      let body = '';
      for (let i = 0; i < count; i++) {
        const step = steps[i];
        body += i === 0 ? eventLinePrefix(step.index, jsons[i], step.state) : `}\n${eventLinePrefix(step.index, jsons[i], step.state)}`;
      }
      const group = encoder.encode(lastHash, body);
      lastHash = group.hash;
      lines += count;
      bytes += group.bytes.length;
      out = group.bytes;
    }
    // Recording stops at a step that cannot be serialised; the lines made before it still go out, sealed.
    if (failure !== null) fail(failure);
    return out;
  };
  /** Counters and the last hash are read after the pending steps became lines (a file writes them then). */
  const settled = <T>(read: () => T): T => {
    if (pending.length > 0) writer.commit();
    return read();
  };
  // A header is written by a new recording only (a continued log has none), so it is always the current version:
  // version 1's members, with `initialHash` last, as it hashes the bytes before it. The text is exactly
  // `JSON.stringify(header)` up to `at`, assembled around the config's and params' JSON, which the check for
  // secrets makes anyway (so they are serialised once).
  const writeHeader = (state: LoopState) => {
    let prefix = `{"kind":"header","format":${JSON.stringify(SESSION_LOG_FORMAT)},"version":${SESSION_LOG_VERSION},"engineVersion":${JSON.stringify(ENGINE_VERSION)},`;
    prefix += `"machineHash":${JSON.stringify(machineHash())},"createdAt":${JSON.stringify(new Date().toISOString())},`;
    prefix += `"config":${redact.toJson(config)},"params":${redact.toJson(options.params ?? paramsFromInitialState(state))}`;
    if (patterns.length > 0) prefix += `,"redactPatterns":${JSON.stringify(patterns)}`;
    prefix += `,"at":${controlDigestJson(state)}`;
    lastHash = headerHash(SESSION_LOG_VERSION, prefix);
    const text = `${prefix},"initialHash":"${lastHash}"}\n`;
    writer.write(text);
    writer.commit();
    lines += 1;
    bytes += Buffer.byteLength(text);
  };

  const observer = ((record) => {
    if (error) return;
    try {
      if (record.index !== nextIndex) throw new TurnloopError('RECORDER_STEP_ORDER', `session recorder: expected step ${nextIndex}, got step ${record.index}`);
      nextIndex += 1;
      if (record.event === null) {
        writeHeader(record.state);
        return;
      }
      // The record itself is queued (step records are immutable data, like the states and events they hold).
      pending.push(record as RecordedStep);
      if (commitsBefore(record.effects) || pending.length >= MAX_PENDING_STEPS) writer.commit();
      // Every commit empties the queue, so only its first step has to tell the writer (one call per stretch, not
      // per step: the writer's schedule then covers every step queued after it until the next commit).
      else if (pending.length === 1) writer.touch();
    } catch (caught) {
      fail(caught);
    }
  }) as SessionRecorder;

  Object.defineProperties(observer, {
    lines: { get: () => settled(() => lines) },
    bytes: { get: () => settled(() => bytes) },
    error: { get: () => error },
    lastHash: { get: () => settled(() => lastHash) },
    close: {
      value: () => {
        try {
          writer.close();
        } finally {
          lock?.release();
        }
      },
    },
  });
  return observer;
}

/**
 * Records a run started by `query()` to `target`, with the run's resolved config and params in the header: pass it
 * in `observers` (the root `query()`'s `record` option does).
 *
 * @example
 * await runQuery({ prompt: 'hi', observers: [recordTo('run.jsonl')] });
 */
export function recordTo(target: RecordTarget, options: Pick<SessionRecorderOptions, 'redact' | 'fsync' | 'onError'> = {}): RunObserverFactory {
  return ({ config, params }) => {
    const recorder = createSessionRecorder(target, { config, params, ...options });
    return { onStep: recorder, close: () => recorder.close() };
  };
}
