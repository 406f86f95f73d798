/**
 * Recording: an `onStep` observer that appends a session log while a run goes on.
 *
 * Invariants:
 * - Append-only, one line per step, written synchronously (`writeSync` on a file opened in append mode), so a
 *   crash of the process loses at most the line being written; `fsync: true` also survives an OS crash (slower).
 * - Step 0 (event null) writes the header; every later step writes one event line. Lines hold no state snapshot.
 * - Everything written goes through the redactor first (header and events); the control summary that is hashed
 *   is redacted too, so live hashes equal replayed hashes (see `stable-hash.ts` for what the hash covers).
 * - The observer never throws (the interpreter does not expect it to): a write failure is kept in `error` and
 *   recording stops.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import { resolveQueryConfig } from '../effects/query.ts';
import type { RunObserverFactory, StepObserver } from '../effects/query-options.ts';
import type { Effect } from '../reducer/effects.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { machineHash } from './machine-hash.ts';
import { createRedactor, secretValuesFromEnv, type RedactOptions, type Redactor } from './redact.ts';
import { ENGINE_VERSION, SESSION_LOG_FORMAT, SESSION_LOG_VERSION, type SessionHeader, type StateDigest } from './session-log-schema.ts';
import { chainHash, controlDigest, controlSummary, stableStringify } from './stable-hash.ts';

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
  /** Continue an existing log (resume): no header; indexes and the hash chain go on from here. */
  continueFrom?: { index: number; hash: string };
}

export interface SessionRecorder extends StepObserver {
  /** Lines written so far. */
  readonly lines: number;
  /** Bytes written so far. */
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
 * The hash of step 0: config, params and the control summary of the initial state. The machine fingerprint is
 * checked on its own (header), not chained, so a log replayed across allowed version skew is still verified.
 */
export function initialHashOf(config: LoopConfig, params: LoopParams, state: LoopState, effects: readonly Effect[], redact: Redactor): string {
  return chainHash(`${SESSION_LOG_FORMAT}/${SESSION_LOG_VERSION}`, stableStringify({ config, params }), redactedControlJson(state, effects, redact));
}

/** The hash of an event line (see `stable-hash.ts`). `eventJson` is the logged (redacted) event text. */
export function eventHashOf(previous: string, eventJson: string, state: LoopState, effects: readonly Effect[], redact: Redactor): string {
  return chainHash(previous, eventJson, redactedControlJson(state, effects, redact));
}

/**
 * The text of an event line: exactly `JSON.stringify({ kind, index, event, hash, at })`, assembled around the
 * event's JSON text, which the hash needed anyway, so the event is serialised once per step, not three times.
 */
function eventLineText(index: number, eventJson: string, hash: string, at: StateDigest): string {
  return `{"kind":"event","index":${JSON.stringify(index)},"event":${eventJson},"hash":${JSON.stringify(hash)},"at":${JSON.stringify(at)}}\n`;
}

function openWriter(target: RecordTarget, fsync: boolean): { write(text: string): void; close(): void } {
  if (typeof target !== 'string') return { write: (text) => void target.write(text), close: () => undefined };
  const fd = openSync(target, 'a');
  return {
    write(text) {
      writeSync(fd, text);
      if (fsync) fsyncSync(fd);
    },
    close: () => closeSync(fd),
  };
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
  const config = resolveQueryConfig(options.config);
  // Values of secret-named environment variables are masked too; they are never written (not even to the header).
  const redact = createRedactor({ secretValues: secretValuesFromEnv(process.env), ...options.redact });
  const patterns = (options.redact?.patterns ?? []).map((p) => (typeof p === 'string' ? { source: p, flags: 'g' } : { source: p.source, flags: p.flags }));
  const writer = openWriter(target, options.fsync === true);
  let lines = 0;
  let bytes = 0;
  let error: Error | null = null;
  let lastHash = options.continueFrom?.hash ?? '';
  let nextIndex = options.continueFrom ? options.continueFrom.index + 1 : 0;

  const writeText = (text: string) => {
    writer.write(text);
    lines += 1;
    bytes += Buffer.byteLength(text);
  };

  const observer = (({ index, event, state, effects }) => {
    if (error) return;
    try {
      if (index !== nextIndex) throw new Error(`session recorder: expected step ${nextIndex}, got step ${index}`);
      nextIndex += 1;
      if (event === null) {
        const params = redact(options.params ?? paramsFromInitialState(state));
        const safeConfig = redact(config);
        lastHash = initialHashOf(safeConfig, params, state, effects, redact);
        const header: SessionHeader = {
          kind: 'header',
          format: SESSION_LOG_FORMAT,
          version: SESSION_LOG_VERSION,
          engineVersion: ENGINE_VERSION,
          machineHash: machineHash(),
          createdAt: new Date().toISOString(),
          config: safeConfig,
          params,
          ...(patterns.length > 0 ? { redactPatterns: patterns } : {}),
          initialHash: lastHash,
          at: controlDigest(state),
        };
        writeText(`${JSON.stringify(header)}\n`);
        return;
      }
      const eventJson = redact.toJson(event);
      lastHash = eventHashOf(lastHash, eventJson, state, effects, redact);
      writeText(eventLineText(index, eventJson, lastHash, controlDigest(state)));
    } catch (caught) {
      error = caught instanceof Error ? caught : new Error(String(caught));
    }
  }) as SessionRecorder;

  Object.defineProperties(observer, {
    lines: { get: () => lines },
    bytes: { get: () => bytes },
    error: { get: () => error },
    lastHash: { get: () => lastHash },
    close: { value: () => writer.close() },
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
export function recordTo(target: RecordTarget, options: { redact?: RedactOptions; fsync?: boolean } = {}): RunObserverFactory {
  return ({ config, params }) => {
    const recorder = createSessionRecorder(target, { config, params, redact: options.redact, fsync: options.fsync });
    return { onStep: recorder, close: () => recorder.close() };
  };
}
