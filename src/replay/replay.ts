/**
 * `replay(log)`: folds the recorded events through `step()` and checks every state against its recorded hash.
 *
 * This is a pure computation over the log (no model, no tools, no clock): the same log always replays to the same
 * final state. Invariants:
 * - The initial state is rebuilt from the header's params and config (or the config with `options.config`
 *   overrides merged over it); effects are re-derived by `step()`, never read from the log.
 * - With verification on (the default unless overrides are given), the first step whose hash differs throws
 *   `ReplayDivergenceError` at that index; nothing after it is trusted.
 * - A log from a different statechart is refused with `MachineVersionMismatchError` unless `allowVersionSkew`.
 * - The text of a version-2 or -3 log is parsed and folded in one pass (`replayLogText`); whatever that pass does
 *   not take on or finds wrong is parsed then folded, so results and errors are always those of the second way.
 */
import { readFileSync } from 'node:fs';
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { LoopContext, LoopState } from '../data/state.ts';
import { isLoopEvent } from '../data/event-check.ts';
import { createStepMemo, initialStateWithMemo, stepWithMemo, type StepMemo } from '../reducer/stepper.ts';
import type { StepResult } from '../reducer/step.ts';
import { startTransientFold, transientFoldState, transientStep } from '../reducer/transient-fold.ts';
import { sharedChartPaths } from '../runtime/chart-paths.ts';
import { digestDiff, MachineVersionMismatchError, ReplayDivergenceError } from './errors.ts';
import { machineHash } from './machine-hash.ts';
import { eventLineFields, scanEventLine, type EventLineFields } from './event-line-scanner.ts';
import { parseEventText } from './event-text.ts';
import { isLatin1Text } from './json-string-text.ts';
import type { EventRead } from './template-scan.ts';
import { stateValuePatterns } from './state-value-patterns.ts';
import { parseSessionLogText, type ParsedSessionLog, type SessionLogSource } from './parse-session-log.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { MAX_GROUP_LINES, type SessionEventLine, type SessionHeader, type StateDigest } from './session-log-schema.ts';
import { eventHashOf, headerHash, initialHashOf } from './session-recorder.ts';
import { controlDigest, lineHash, shortHash, stateValueString } from './stable-hash.ts';

export interface ReplayOptions {
  /** Overrides merged over the header's config. Turns hash verification off unless `verify: true`. */
  config?: ConfigOverrides;
  /** Check every recorded hash (default: true without overrides). */
  verify?: boolean;
  /** Replay a log recorded with a different statechart. */
  allowVersionSkew?: boolean;
}

/** One folded step: index 0 is the initial state (event null). */
export interface FoldedStep {
  index: number;
  event: LoopEvent | null;
  state: LoopState;
  effects: Effect[];
  /** The chain's last hash at or before this step (in version 3, a line inside a commit group has none of its own). */
  hash: string;
}

export interface ReplayResult {
  header: SessionHeader;
  finalState: LoopState;
  /** Every message the run emitted, in order (re-derived from the `emit` effects). */
  emitted: Message[];
  /** The Terminal, or null when the log ends before the run did (a crashed or paused run). */
  terminal: Terminal | null;
  /** Steps folded, including the initial one. */
  steps: number;
  /** The dropped, incomplete last line of the log, if any. */
  truncated: ParsedSessionLog['truncated'];
}

/** The redactor the recording used (built-ins plus the header's extra patterns). */
export function redactorOf(header: SessionHeader): Redactor {
  return createRedactor({ patterns: header.redactPatterns ?? [] });
}

/** The config a replay runs under. */
export function replayConfig(header: SessionHeader, overrides?: ConfigOverrides): LoopConfig {
  return overrides ? resolveConfig(overrides, header.config) : header.config;
}

export function checkMachineVersion(header: SessionHeader, allowVersionSkew = false): void {
  const current = machineHash();
  if (header.machineHash !== current && !allowVersionSkew) {
    throw new MachineVersionMismatchError(header.machineHash, current, header.engineVersion);
  }
}

function diverged(index: number, expected: { hash: string; at: StateDigest }, state: LoopState, actualHash: string): never {
  const actualAt = controlDigest(state);
  throw new ReplayDivergenceError(index, expected, { hash: actualHash, at: actualAt }, digestDiff(expected.at, actualAt));
}

/**
 * Versions 2 and 3: a hashed line ends `,"hash":"<16 hex>"}`; the bytes before that are what its hash covers. Null
 * when the line does not end so (its hash then cannot match: the line was edited).
 */
function hashedPrefix(raw: string, member: 'hash' | 'initialHash'): string | null {
  const tail = `,"${member}":"`;
  const start = raw.length - tail.length - 18;
  if (start < 0 || !raw.startsWith(tail, start) || !raw.endsWith('"}')) return null;
  return raw.slice(0, start);
}

/** Throws unless the digest of the replayed state equals the recorded `at` (the reducer decided the same). */
function checkDigest(index: number, recorded: { hash?: string; at: StateDigest }, state: LoopState, chainHash: string): void {
  const at = recorded.at;
  const c = state.context;
  if (at.turn === c.turnCount && at.msgs === c.messages.length && at.seq === c.seq && at.v === stateValueString(state.value)) return;
  const actualAt = controlDigest(state);
  throw new ReplayDivergenceError(index, { hash: recorded.hash ?? chainHash, at }, { hash: chainHash, at: actualAt }, digestDiff(at, actualAt));
}

/**
 * Versions 2 and 3: the bytes a recorded hash covers (the earlier lines of its commit group, `unhashed`, then this
 * line up to its hash) hash to it: nothing was edited. Returns the hash.
 */
function checkHash(index: number, raw: string, recorded: { hash: string; at: StateDigest }, previous: string, unhashed: string, state: LoopState, groupStart: number): string {
  const prefix = hashedPrefix(raw, index === 0 ? 'initialHash' : 'hash');
  const hash = prefix === null ? '' : lineHash(previous, unhashed + prefix);
  if (hash === recorded.hash) return hash;
  const lines = groupStart === index ? `the line's bytes do not match its hash` : `the bytes of events ${groupStart}-${index} (one commit group) do not match its hash`;
  throw new ReplayDivergenceError(index, recorded, { hash, at: controlDigest(state) }, `${lines}: it was edited`);
}

/** A line without a hash where it needs one (a log handed over already parsed, which the parser did not check). */
function unhashedLineError(line: SessionEventLine, chainHash: string, state: LoopState, why: string): ReplayDivergenceError {
  return new ReplayDivergenceError(line.index, { hash: '', at: line.at }, { hash: chainHash, at: controlDigest(state) }, why);
}

/** Versions 2 and 3: the header's digest matches the initial state and its bytes hash to its `initialHash`. */
function checkHeader(header: SessionHeader, version: 2 | 3, raw: string, state: LoopState): void {
  const hash = header.initialHash;
  checkDigest(0, header, state, hash);
  const prefix = hashedPrefix(raw, 'initialHash');
  const recomputed = prefix === null ? '' : headerHash(version, prefix);
  if (recomputed !== hash) throw new ReplayDivergenceError(0, { hash, at: header.at }, { hash: recomputed, at: controlDigest(state) }, "the header's bytes do not match its hash: it was edited");
}

/** What every fold of a log starts from: the machine's fingerprint checked, the config, the memo, the initial step. */
function beginFold(header: SessionHeader, options: ReplayOptions): { verify: boolean; config: LoopConfig; redact: Redactor; memo: StepMemo; started: StepResult } {
  checkMachineVersion(header, options.allowVersionSkew);
  const verify = options.verify ?? options.config === undefined;
  const config = replayConfig(header, options.config);
  const redact = redactorOf(header);
  // A memo of the chart's paths: a log repeats the same few paths thousands of times, and every replay and run in
  // the process shares them (`chart-paths.ts`), so only the first asks xstate.
  const memo = createStepMemo(sharedChartPaths());
  return { verify, config, redact, memo, started: initialStateWithMemo(memo, header.params, config) };
}

/** The text of a logged line: as read, or (a log built in memory) its JSON, which is what the recorder wrote. */
function rawLine(log: ParsedSessionLog, index: number): string {
  if (index === 0) return log.raw?.header ?? JSON.stringify(log.header);
  return log.raw?.events[index - 1] ?? JSON.stringify(log.events[index - 1]);
}

/**
 * Folds a parsed log step by step (a generator, so time travel can stop early). Verifies hashes when `verify`.
 */
export function* foldSessionLog(log: ParsedSessionLog, options: ReplayOptions = {}): Generator<FoldedStep> {
  const { header } = log;
  const { verify, config, redact, memo, started } = beginFold(header, options);
  let state = started.state;
  if (header.version === 1) {
    let hash = initialHashOf(header.config, header.params, state, started.effects, redact);
    if (verify && hash !== header.initialHash) diverged(0, { hash: header.initialHash, at: header.at }, state, hash);
    yield { index: 0, event: null, state, effects: started.effects, hash };
    for (const line of log.events) {
      const result = stepWithMemo(memo, state, line.event, config);
      state = result.state;
      hash = eventHashOf(hash, JSON.stringify(line.event), state, result.effects, redact);
      if (verify && hash !== line.hash) diverged(line.index, { hash: line.hash ?? '', at: line.at }, state, hash);
      yield { index: line.index, event: line.event, state, effects: result.effects, hash };
    }
    return;
  }
  let hash = header.initialHash;
  if (verify) checkHeader(header, header.version, rawLine(log, 0), state);
  yield { index: 0, event: null, state, effects: started.effects, hash };
  // Version 3: the lines of a commit group before its hashed last line, as read, each with its newline, and
  // their folded steps, held until the group's hash vouches for them (time travel stops early: it must never be
  // handed a step of an edited group).
  let unhashed = '';
  let held: FoldedStep[] = [];
  for (let i = 0; i < log.events.length; i++) {
    const line = log.events[i];
    const result = stepWithMemo(memo, state, line.event, config);
    state = result.state;
    // A step inside a version-3 group carries the chain's hash so far (the one before its group).
    const folded: FoldedStep = { index: line.index, event: line.event, state, effects: result.effects, hash };
    if (!verify) {
      if (line.hash !== undefined) hash = line.hash;
      yield folded;
      continue;
    }
    checkDigest(line.index, line, state, hash);
    const raw = rawLine(log, i + 1);
    if (line.hash === undefined) {
      // The parser refuses these; a log handed over already parsed is checked here.
      if (header.version !== 3) throw unhashedLineError(line, hash, state, `the line has no hash, which every line of a version-${header.version} log carries`);
      if (held.length + 1 >= MAX_GROUP_LINES) throw unhashedLineError(line, hash, state, `no hash in ${MAX_GROUP_LINES} lines: longer than any commit group`);
      unhashed += `${raw}\n`;
      held.push(folded);
      continue;
    }
    hash = checkHash(line.index, raw, line as { hash: string; at: StateDigest }, hash, unhashed, state, held[0]?.index ?? line.index);
    unhashed = '';
    const group = held;
    held = [];
    yield* group;
    yield { ...folded, hash };
  }
  // Lines no hash covers: the parser drops them from a log it reads; one handed over already parsed is refused.
  if (held.length > 0) {
    const first = held[0];
    throw new ReplayDivergenceError(first.index, { hash: '', at: controlDigest(first.state) }, { hash, at: controlDigest(first.state) }, `events ${first.index}-${held[held.length - 1].index} are not covered by any hash (the log ends inside a commit group)`);
  }
}

/**
 * Replays a session log and returns the final state, the emitted messages and the terminal.
 *
 * @example
 * const { terminal, emitted } = replay('session.jsonl');
 */
export function replay(source: SessionLogSource, options: ReplayOptions = {}): ReplayResult {
  if (typeof source !== 'string' && !('text' in source)) return replayParsed(source, options);
  const text = typeof source === 'string' ? readFileSync(source, 'utf8') : source.text;
  return replayLogText(text, options) ?? replayParsed(parseSessionLogText(text, typeof source === 'string' ? source : source.file), options);
}

/** Parsed first, then folded (`foldSessionLog`): every log, every version, and every error worded. */
function replayParsed(log: ParsedSessionLog, options: ReplayOptions): ReplayResult {
  const emitted: Message[] = [];
  let last: FoldedStep | null = null;
  let steps = 0;
  for (const folded of foldSessionLog(log, options)) {
    collectEmitted(folded.effects, emitted);
    last = folded;
    steps += 1;
  }
  return resultOf(log.header, (last as FoldedStep).state, emitted, steps, log.truncated);
}

function collectEmitted(effects: readonly Effect[], emitted: Message[]): void {
  // Indexed: a step without effects hands out one frozen array (`follow`), whose iterator V8 does not optimize away.
  for (let i = 0; i < effects.length; i++) {
    const effect = effects[i];
    if (effect.type === 'emit') emitted.push(effect.message);
  }
}

function resultOf(header: SessionHeader, finalState: LoopState, emitted: Message[], steps: number, truncated: ParsedSessionLog['truncated']): ReplayResult {
  return { header, finalState, emitted, terminal: finalState.status === 'done' ? finalState.context.terminal : null, steps, truncated };
}

/**
 * `replay()` of the text of a version-2 or -3 log in one pass: each line's envelope read by hand
 * (`event-line-scanner.ts`), its event parsed, checked (`isLoopEvent`, unless a template reader built it whole:
 * `EventRead` in `template-scan.ts`) and folded at once, the digest and the hashes checked against the text
 * itself. No line object is built, and an event the state does not keep dies with its step instead of living as
 * long as the whole parsed log.
 *
 * The same checks as parsing then folding, in the same cases, with the same result. Null at the first thing it
 * does not take on (another layout or spelling, a blank line, version 1, a log cut inside a group) or that fails
 * (any check, any error): the caller then parses and folds the slow way, which reads what this does not, and
 * words the error. A test holds the two equal on valid, malformed and tampered logs.
 */
export function replayLogText(text: string, options: ReplayOptions = {}): ReplayResult | null {
  try {
    return foldLogText(text, options);
  } catch {
    return null;
  }
}

function foldLogText(text: string, options: ReplayOptions): ReplayResult | null {
  const headerEnd = text.indexOf('\n');
  if (headerEnd < 0) return null;
  // The header line, through the parser itself (one line: the schema's checks and its errors).
  const { header, raw } = parseSessionLogText(text.slice(0, headerEnd + 1));
  if (header.version === 1 || !raw) return null;
  const { verify, config, memo, started } = beginFold(header, options);
  if (verify) checkHeader(header, header.version, raw.header, started.state);
  const emitted: Message[] = [];
  collectEmitted(started.effects, emitted);
  const fields = eventLineFields();
  const valueText = stateValuePatterns();
  // How the event readers cut short strings (`json-string-text.ts`), found once for the whole text.
  const latin1 = isLatin1Text(text);
  // Whether the event reader built the line's event whole (then it has the schema's shape by construction).
  const read: EventRead = { checked: false };
  // Each commit group as three offsets (its start, the end of its hashed bytes, its hash), checked after the fold.
  const groups: number[] = [];
  // No state of this fold but the last leaves it, and no effect but the emitted messages: the fold owns its states
  // (`transient-fold.ts`: the history grows in place, no state is built per step) and builds no other effect.
  const fold = startTransientFold(memo, started.state, config, true);
  let groupStart = headerEnd + 1;
  let unhashed = 0;
  let steps = 1;
  for (let start = headerEnd + 1; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    if (!scanEventLine(text, start, end, fields) || fields.index !== steps) return null;
    const event = parseEventText(text, fields.eventStart, fields.eventEnd, latin1, read);
    // An event any part of which `JSON.parse` gave is validated; one the reader built whole is valid as built.
    if (!read.checked && !isLoopEvent(event)) return null;
    const hashed = fields.hashStart >= 0;
    // Version 2 hashes every line; version 3 at least every MAX_GROUP_LINES lines.
    if (hashed) unhashed = 0;
    else if (header.version !== 3 || ++unhashed >= MAX_GROUP_LINES) return null;
    collectEmitted(transientStep(fold, event as LoopEvent), emitted);
    if (verify) {
      if (!digestMatches(text, fields, fold.context, fold.value, valueText)) return null;
      if (hashed) groups.push(groupStart, fields.hashedEnd, fields.hashStart);
    }
    if (hashed) groupStart = end + 1;
    steps += 1;
    start = end + 1;
  }
  // Lines after the last hash: the parser drops them and says so in `truncated`.
  if (unhashed > 0) return null;
  if (verify && !groupsHashTo(text, groups, header.initialHash)) return null;
  return resultOf(header, transientFoldState(fold), emitted, steps, null);
}

/** `checkDigest` against the line's text: the recorded `at` is the digest of the replayed state. */
function digestMatches(text: string, fields: EventLineFields, c: LoopContext, stateValue: LoopState['value'], valuePattern: (value: LoopState['value']) => RegExp): boolean {
  if (fields.turn !== c.turnCount || fields.msgs !== c.messages.length || fields.seq !== c.seq) return false;
  const pattern = valuePattern(stateValue);
  pattern.lastIndex = fields.valueStart;
  return pattern.test(text) && pattern.lastIndex === fields.valueEnd;
}

/**
 * Whether every commit group's bytes hash to the hash its last line records: the group's lines, each with its
 * newline, then that line up to its hash (the text between, as read), after the previous group's hash. Checked after
 * the fold, back to back: a failure anywhere gives the same null (the slow path then finds the first one and words
 * it), and the groups hashed in one loop cost less than hashed between steps (round-14-replay block in
 * docs/benchmarks.md).
 */
function groupsHashTo(text: string, groups: readonly number[], initialHash: string): boolean {
  const hasher = groupHasher();
  let hash = initialHash;
  for (let i = 0; i < groups.length; i += 3) {
    hash = hasher(hash, text, groups[i], groups[i + 1]);
    if (!sameTextAt(text, groups[i + 2], hash)) return false;
  }
  return true;
}

/** Whether `text` holds `part` at `at` (a line's hash: 16 characters, compared faster than `startsWith` does). */
function sameTextAt(text: string, at: number, part: string): boolean {
  if (at + part.length > text.length) return false;
  for (let i = 0; i < part.length; i++) if (text.charCodeAt(at + i) !== part.charCodeAt(i)) return false;
  return true;
}

/**
 * `lineHash(previous, text.slice(from, to))` without building that text: the previous hash, a newline and the
 * group's text are written as UTF-8 into one buffer of the replay's own, reused from group to group, and hashed
 * from there. The text itself would be flattened into a fresh copy per group (the bench's log: 2.5 MB per replay,
 * a seventh of what a replay allocates). A test holds it to `lineHash`.
 */
export function groupHasher(): (previous: string, text: string, from: number, to: number) => string {
  let bytes = Buffer.allocUnsafe(0);
  return (previous, text, from, to) => {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    const most = 3 * (previous.length + 1 + to - from);
    if (bytes.length < most) bytes = Buffer.allocUnsafe(Math.max(most, 2 * bytes.length));
    let length = bytes.write(previous, 0, 'utf8');
    bytes[length++] = NEWLINE;
    length += bytes.write(text.slice(from, to), length, 'utf8');
    return shortHash(bytes.subarray(0, length));
  };
}

const NEWLINE = 0x0a;
