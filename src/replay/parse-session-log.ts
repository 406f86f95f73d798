/**
 * Reading a session log: JSON Lines validated line by line with the one line schema.
 *
 * Invariants:
 * - A LAST line that is not complete JSON (a crash while writing it) is reported in `truncated` and dropped;
 *   every line before it is returned. In version 3, the event lines after the last line that carries a hash are
 *   dropped the same way (the log was cut inside a commit group: no hash covers them); `truncated` then names the
 *   first of them.
 * - Any other bad line throws `SessionLogParseError` with the file, the 1-based line number and what was expected.
 * - Line 1 must be the header; event indexes must be 1, 2, 3, … without gaps.
 * - Events are returned exactly as logged (the schema validates, it does not strip), because replay must fold the
 *   very JSON that was hashed.
 * - `lenient` (the viewer) also reads the minimal format of tests and hand-written fixtures: a header with just
 *   `config` and `params`, event lines with just `kind` and `event` (each validated with the event schema). Such a
 *   log has no hashes: it can be viewed, not replayed. Errors are the same `SessionLogParseError`.
 */
import { readFileSync } from 'node:fs';
import type { ConfigOverrides } from '../config/config.ts';
import { loopEventSchema } from '../data/event-schema.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams } from '../data/state.ts';
import { compileLinearRegExp, tryCompile } from '../tools/builtin/linear-regexp.ts';
import { SessionLogParseError } from './errors.ts';
import { isLoopEvent } from '../data/event-check.ts';
import { MAX_GROUP_LINES, SESSION_LOG_FORMAT, sessionLogLineSchema, type SessionEventLine, type SessionHeader } from './session-log-schema.ts';

export interface ParsedSessionLog {
  file: string;
  header: SessionHeader;
  events: SessionEventLine[];
  /** The dropped, incomplete last line, if any. */
  truncated: { line: number; text: string } | null;
  /** Bytes of the complete lines (a resumed recording appends after them). */
  validBytes: number;
  /**
   * The text of the header line and of each event line, as read (versions 2 and 3 verify these bytes). Absent when a
   * log was built in memory: replay then uses each line's JSON text, which is the same for a recorder's lines.
   */
  raw?: { header: string; events: string[] };
}

/** A log in the minimal format, read with `lenient` (see the invariants above). */
export interface MinimalSessionLog {
  file: string;
  minimal: true;
  config: ConfigOverrides;
  params: LoopParams;
  events: Array<{ index: number; event: LoopEvent }>;
}

export interface ParseSessionLogOptions {
  /** Also accept the minimal format (the viewer does); strict by default (replay, resume, sign). */
  lenient?: boolean;
}

/** A log given as a path, as its text, or already parsed. */
export type SessionLogSource = string | { text: string; file?: string } | ParsedSessionLog;

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(line)'}: ${issue.message}`)
    .join('; ');
}

/**
 * The envelope of an event line (everything but the event), checked by hand: the same rules as
 * `eventLineSchema`, at a fraction of the cost. Lines that fail it go through the schema, for its error message.
 */
function isEventEnvelope(data: unknown, hashOptional: boolean): data is { kind: 'event'; index: number; event: unknown; hash?: string; at: Record<string, unknown> } {
  if (typeof data !== 'object' || data === null) return false;
  const line = data as Record<string, unknown>;
  const at = line.at as Record<string, unknown> | null | undefined;
  return line.kind === 'event' && Number.isInteger(line.index) && (line.index as number) > 0
    && (typeof line.hash === 'string' || (hashOptional && line.hash === undefined))
    && typeof at === 'object' && at !== null && !Array.isArray(at)
    && typeof at.v === 'string' && typeof at.turn === 'number' && typeof at.msgs === 'number' && typeof at.seq === 'number';
}

/** Redaction patterns a header may carry (each is compiled into RE2's fixed heap). */
export const MAX_REDACT_PATTERNS = 64;

/**
 * A log from a stranger must not run a catastrophic regular expression: the header's redaction patterns must be
 * ones RE2 (linear time) accepts, or the log is refused here, before replay or viz would compile them.
 */
function checkRedactPatterns(header: SessionHeader, file: string): void {
  const patterns = header.redactPatterns ?? [];
  if (patterns.length > MAX_REDACT_PATTERNS) {
    throw new SessionLogParseError(file, 1, `expected at most ${MAX_REDACT_PATTERNS} redactPatterns, got ${patterns.length}`);
  }
  patterns.forEach((pattern, i) => {
    const compiled = tryCompile(() => compileLinearRegExp(pattern.source, pattern.flags));
    if (typeof compiled === 'string') {
      throw new SessionLogParseError(file, 1, `expected redactPatterns[${i}] to be a regular expression RE2 can run in linear time: ${compiled}`);
    }
    compiled.free();
  });
}

/** The start of a dropped line, as `truncated` reports it. */
function excerpt(raw: string): string {
  return raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
}

function jsonObjectAt(raw: string, line: number, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new SessionLogParseError(file, line, `expected a JSON object, got text that is not JSON (${(error as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SessionLogParseError(file, line, 'expected a JSON object');
  return value as Record<string, unknown>;
}

/** The minimal format: a header with config and params, then `{kind: "event", event}` lines. */
function parseMinimalLog(lines: ReadonlyArray<readonly [string, number]>, file: string): MinimalSessionLog {
  const [headerText, headerLine] = lines[0]!;
  const header = jsonObjectAt(headerText, headerLine, file);
  if (header['kind'] !== 'header') throw new SessionLogParseError(file, headerLine, `expected kind "header", got ${JSON.stringify(header['kind'])}`);
  const params = header['params'] as LoopParams | undefined;
  if (!params || typeof params !== 'object' || !Array.isArray(params.messages)) {
    throw new SessionLogParseError(file, headerLine, 'expected a header with params holding a messages array');
  }
  const events: MinimalSessionLog['events'] = [];
  for (const [lineText, line] of lines.slice(1)) {
    const entry = jsonObjectAt(lineText, line, file);
    if (entry['kind'] !== 'event') throw new SessionLogParseError(file, line, `expected kind "event", got ${JSON.stringify(entry['kind'])}`);
    const result = loopEventSchema.safeParse(entry['event']);
    if (!result.success) throw new SessionLogParseError(file, line, `expected an event: ${describeIssues(result.error.issues)}`);
    events.push({ index: typeof entry['index'] === 'number' ? entry['index'] : events.length + 1, event: result.data as LoopEvent });
  }
  return { file, minimal: true, config: (header['config'] ?? {}) as ConfigOverrides, params, events };
}

/**
 * Parses session log text; `file` only names the source in errors. With `lenient`, a log whose header has no
 * `format` is read in the minimal format instead.
 */
export function parseSessionLogText(text: string, file?: string, options?: { lenient?: false }): ParsedSessionLog;
export function parseSessionLogText(text: string, file: string | undefined, options: ParseSessionLogOptions): ParsedSessionLog | MinimalSessionLog;
export function parseSessionLogText(text: string, file = '<log>', options: ParseSessionLogOptions = {}): ParsedSessionLog | MinimalSessionLog {
  if (options.lenient) {
    const lines = text.split('\n').map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l !== '');
    if (lines.length === 0) throw new SessionLogParseError(file, 1, 'expected a header line, the log is empty');
    const [headerText, headerLine] = lines[0]!;
    if (jsonObjectAt(headerText, headerLine, file)['format'] !== SESSION_LOG_FORMAT) return parseMinimalLog(lines, file);
  }
  const rawLines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) rawLines.pop();
  const lastIndex = rawLines.length - 1;
  let header: SessionHeader | null = null;
  const events: SessionEventLine[] = [];
  let truncated: ParsedSessionLog['truncated'] = null;
  let headerRaw = '';
  const eventRaws: string[] = [];
  const eventLineNos: number[] = [];
  let unhashedRun = 0;
  for (let i = 0; i < rawLines.length; i++) {
    const lineNo = i + 1;
    const raw = rawLines[i];
    if (raw.trim() === '') continue;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      if (i === lastIndex && !endsWithNewline) {
        truncated = { line: lineNo, text: excerpt(raw) };
        break;
      }
      throw new SessionLogParseError(file, lineNo, 'expected one JSON object per line, got text that is not JSON');
    }
    // The hand-written checks answer as the schema does (tested); the schema runs only to word a failure.
    const valid = lineNo > 1 && isEventEnvelope(data, header?.version === 3) && isLoopEvent(data.event);
    const result = valid ? null : sessionLogLineSchema.safeParse(data);
    if (result && !result.success) {
      const what = lineNo === 1 ? 'a session header' : 'an event line';
      throw new SessionLogParseError(file, lineNo, `expected ${what}: ${describeIssues(result.error.issues)}`);
    }
    const line = data as SessionHeader | SessionEventLine;
    if (lineNo === 1) {
      if (line.kind !== 'header') throw new SessionLogParseError(file, 1, 'expected the session header (kind "header") on line 1');
      checkRedactPatterns(line, file);
      header = line;
      headerRaw = raw;
    } else {
      if (line.kind !== 'event') throw new SessionLogParseError(file, lineNo, 'expected an event line (kind "event"), got a second header');
      const expectedIndex = events.length + 1;
      if (line.index !== expectedIndex) {
        throw new SessionLogParseError(file, lineNo, `expected event index ${expectedIndex}, got ${line.index}`);
      }
      if (line.hash !== undefined) unhashedRun = 0;
      else if (header?.version !== 3) {
        throw new SessionLogParseError(file, lineNo, `expected an event line: hash: required in a version-${header?.version} log`);
      } else if (++unhashedRun >= MAX_GROUP_LINES) {
        throw new SessionLogParseError(file, lineNo, `expected a hash at least every ${MAX_GROUP_LINES} event lines (the end of a commit group), got ${unhashedRun} lines without one`);
      }
      events.push(line);
      eventRaws.push(raw);
      eventLineNos.push(lineNo);
    }
  }
  if (!header) throw new SessionLogParseError(file, 1, 'expected a session header, the log is empty');
  // Every line but a truncated last one is complete (blank lines count too).
  let validBytes = Buffer.byteLength(text) - (truncated ? Buffer.byteLength(rawLines[lastIndex]) : 0);
  if (header.version === 3) {
    let covered = events.length;
    while (covered > 0 && events[covered - 1].hash === undefined) covered -= 1;
    if (covered < events.length) {
      const firstLineNo = eventLineNos[covered];
      truncated = { line: firstLineNo, text: excerpt(eventRaws[covered]) };
      // Everything from the first dropped line's start goes (a resume appends there).
      validBytes = Buffer.byteLength(rawLines.slice(0, firstLineNo - 1).join('\n')) + 1;
      events.length = covered;
      eventRaws.length = covered;
    }
  }
  return { file, header, events, truncated, validBytes, raw: { header: headerRaw, events: eventRaws } };
}

/** Reads and parses a log from any source. */
export function loadSessionLog(source: SessionLogSource): ParsedSessionLog {
  if (typeof source === 'string') return parseSessionLogText(readFileSync(source, 'utf8'), source);
  if ('text' in source) return parseSessionLogText(source.text, source.file);
  return source;
}
