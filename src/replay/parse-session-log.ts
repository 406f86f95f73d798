/**
 * Reading a session log: JSON Lines validated line by line with the one line schema.
 *
 * Invariants:
 * - A LAST line that is not complete JSON (a crash while writing it) is reported in `truncated` and dropped;
 *   every line before it is returned.
 * - Any other bad line throws `SessionLogParseError` with the file, the 1-based line number and what was expected.
 * - Line 1 must be the header; event indexes must be 1, 2, 3, … without gaps.
 * - Events are returned exactly as logged (the schema validates, it does not strip), because replay must fold the
 *   very JSON that was hashed.
 */
import { readFileSync } from 'node:fs';
import { compileLinearRegExp, tryCompile } from '../tools/linear-regexp.ts';
import { SessionLogParseError } from './errors.ts';
import { sessionLogLineSchema, type SessionEventLine, type SessionHeader } from './session-log-schema.ts';

export interface ParsedSessionLog {
  file: string;
  header: SessionHeader;
  events: SessionEventLine[];
  /** The dropped, incomplete last line, if any. */
  truncated: { line: number; text: string } | null;
  /** Bytes of the complete lines (a resumed recording appends after them). */
  validBytes: number;
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
 * A log from a stranger must not run a catastrophic regular expression: the header's redaction patterns must be
 * ones RE2 (linear time) accepts, or the log is refused here, before replay or viz would compile them.
 */
function checkRedactPatterns(header: SessionHeader, file: string): void {
  (header.redactPatterns ?? []).forEach((pattern, i) => {
    const compiled = tryCompile(() => compileLinearRegExp(pattern.source, pattern.flags));
    if (typeof compiled === 'string') {
      throw new SessionLogParseError(file, 1, `expected redactPatterns[${i}] to be a regular expression RE2 can run in linear time: ${compiled}`);
    }
    compiled.free();
  });
}

/** Parses session log text; `file` only names the source in errors. */
export function parseSessionLogText(text: string, file = '<log>'): ParsedSessionLog {
  const rawLines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) rawLines.pop();
  const lastIndex = rawLines.length - 1;
  let header: SessionHeader | null = null;
  const events: SessionEventLine[] = [];
  let truncated: ParsedSessionLog['truncated'] = null;
  let validBytes = 0;
  for (let i = 0; i < rawLines.length; i++) {
    const lineNo = i + 1;
    const raw = rawLines[i];
    if (raw.trim() === '') {
      validBytes += Buffer.byteLength(raw) + 1;
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      if (i === lastIndex && !endsWithNewline) {
        truncated = { line: lineNo, text: raw.length > 80 ? `${raw.slice(0, 80)}…` : raw };
        break;
      }
      throw new SessionLogParseError(file, lineNo, 'expected one JSON object per line, got text that is not JSON');
    }
    const result = sessionLogLineSchema.safeParse(data);
    if (!result.success) {
      const what = lineNo === 1 ? 'a session header' : 'an event line';
      throw new SessionLogParseError(file, lineNo, `expected ${what}: ${describeIssues(result.error.issues)}`);
    }
    const line = data as SessionHeader | SessionEventLine;
    if (lineNo === 1) {
      if (line.kind !== 'header') throw new SessionLogParseError(file, 1, 'expected the session header (kind "header") on line 1');
      checkRedactPatterns(line, file);
      header = line;
    } else {
      if (line.kind !== 'event') throw new SessionLogParseError(file, lineNo, 'expected an event line (kind "event"), got a second header');
      const expectedIndex = events.length + 1;
      if (line.index !== expectedIndex) {
        throw new SessionLogParseError(file, lineNo, `expected event index ${expectedIndex}, got ${line.index}`);
      }
      events.push(line);
    }
    validBytes += Buffer.byteLength(raw) + (i === lastIndex && !endsWithNewline ? 0 : 1);
  }
  if (!header) throw new SessionLogParseError(file, 1, 'expected a session header, the log is empty');
  return { file, header, events, truncated, validBytes };
}

/** Reads and parses a log from any source. */
export function loadSessionLog(source: SessionLogSource): ParsedSessionLog {
  if (typeof source === 'string') return parseSessionLogText(readFileSync(source, 'utf8'), source);
  if ('text' in source) return parseSessionLogText(source.text, source.file);
  return source;
}
