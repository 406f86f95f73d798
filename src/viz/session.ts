/**
 * Reading a session log for the viewer: JSON Lines, a header (`{"kind":"header","config":..,"params":..}`) then
 * one `{"kind":"event","index":n,"event":{..}}` line per external event (`src/replay/session-log-schema.ts`).
 *
 * A recorded log (header `format: "turnloop-session"`) is read with replay's own parser (`parseSessionLogText`:
 * the one line schema, a truncated last line dropped) and kept in `recorded`, so a caller can verify its hash
 * chain with `replay()`. A minimal log (header with just config and params, event lines with just the event,
 * as tests and hand-written fixtures use) is read here, every event validated with `parseEvent` (the boundary
 * check). Pure.
 */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import { parseEvent } from '../reducer/event-schema.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { LoopParams } from '../reducer/state.ts';
import { parseSessionLogText, type ParsedSessionLog } from '../replay/parse-session-log.ts';
import { SESSION_LOG_FORMAT } from '../replay/session-log-schema.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface SessionForView {
  config: LoopConfig;
  params: LoopParams;
  events: LoopEvent[];
  /** The `index` of each event line, as logged. */
  indexes: number[];
  /** Set for a recorded log: what replay's parser read (hashes included). */
  recorded?: ParsedSessionLog;
  /** The subagent runs this run started, when their logs were read (`loadSessionTree`). */
  children?: ChildRunForView[];
}

/** A subagent run: the session of the child that answered the parent's tool call `toolUseId`. */
export interface ChildRunForView {
  toolUseId: string;
  /** The agent's name (from the child's `querySource: 'agent:<name>'`), or null when the log does not say. */
  agent: string | null;
  session: SessionForView;
}

/** A line of the log that is not what the format says; `line` is 1-based. */
export class SessionLogError extends TurnloopError {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super('BAD_SESSION_LOG', `session log line ${line}: ${reason}`);
    this.name = 'SessionLogError';
  }
}

function parseLine(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SessionLogError(line, `not JSON (${(error as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SessionLogError(line, 'not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Parses a session log's text.
 *
 * @example
 * const session = parseSessionLog(readFileSync('run.jsonl', 'utf8'));
 * session.events.length;
 */
export function parseSessionLog(text: string, file = '<log>'): SessionForView {
  const lines = text.split('\n').map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l !== '');
  if (lines.length === 0) throw new SessionLogError(1, 'empty log (expected a header line)');
  const [headerText, headerLine] = lines[0]!;
  const header = parseLine(headerText, headerLine);
  if (header['kind'] !== 'header') throw new SessionLogError(headerLine, `expected kind "header", got ${JSON.stringify(header['kind'])}`);
  if (header['format'] === SESSION_LOG_FORMAT) {
    const recorded = parseSessionLogText(text, file);
    return {
      config: resolveConfig(recorded.header.config as ConfigOverrides),
      params: recorded.header.params,
      events: recorded.events.map((line) => line.event),
      indexes: recorded.events.map((line) => line.index),
      recorded,
    };
  }
  const params = header['params'] as LoopParams | undefined;
  if (!params || typeof params !== 'object' || !Array.isArray(params.messages)) {
    throw new SessionLogError(headerLine, 'header has no params with a messages array');
  }
  const config = resolveConfig((header['config'] ?? {}) as ConfigOverrides);
  const events: LoopEvent[] = [];
  const indexes: number[] = [];
  for (const [lineText, line] of lines.slice(1)) {
    const entry = parseLine(lineText, line);
    if (entry['kind'] !== 'event') throw new SessionLogError(line, `expected kind "event", got ${JSON.stringify(entry['kind'])}`);
    events.push(parseEvent(entry['event'], `line ${line}`));
    indexes.push(typeof entry['index'] === 'number' ? entry['index'] : events.length);
  }
  return { config, params, events, indexes };
}

/** Writes the minimal log format (tests, fixtures): header with config and params, one line per event. */
export function formatSessionLog(session: { config: LoopConfig | ConfigOverrides; params: LoopParams; events: LoopEvent[] }): string {
  const lines = [
    JSON.stringify({ kind: 'header', config: session.config, params: session.params }),
    ...session.events.map((event, i) => JSON.stringify({ kind: 'event', index: i + 1, event })),
  ];
  return `${lines.join('\n')}\n`;
}
