/**
 * A session log as the viewer sees it: config resolved, the events and their indexes. Read by replay's parser
 * (`src/replay/parse-session-log.ts`, the one parser, `lenient` here): a recorded log (header `format:
 * "turnloop-session"`) is kept in `recorded`, so a caller can verify its hash chain with `replay()`; the minimal
 * format (header with config and params, event lines with just the event) is what tests and fixtures write.
 */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams } from '../data/state.ts';
import { parseSessionLogText, type ParsedSessionLog } from '../replay/parse-session-log.ts';

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
  /** A run re-driven from a Claude Code transcript: how the engine's run compares with the recording. */
  check?: RunVerdict;
}

/** The engine's run against the recorded one (`check-claude`'s verdict on it, in a few fields). */
export interface RunVerdict {
  /** The engine reproduces the recording (model calls, tool results, ending, autocompact). */
  ok: boolean;
  /** Where the run is recorded: file and line of its first prompt. */
  file: string;
  line: number;
  ending: { recorded: string; engine: string };
  modelCalls: { recorded: number; engine: number };
  /** What differs, one line each (empty when `ok`); explained differences are not listed. */
  notes: string[];
}

/** A subagent run: the session of the child that answered the parent's tool call `toolUseId`. */
export interface ChildRunForView {
  toolUseId: string;
  /** The agent's name (from the child's `querySource: 'agent:<name>'`), or null when the log does not say. */
  agent: string | null;
  session: SessionForView;
  /** `run`: a later loop run of the same thread (a new prompt), not a subagent; its `toolUseId` is a made-up key. */
  kind?: 'subagent' | 'run';
  /** What the timeline calls it (default: the agent's name). */
  label?: string;
}

/**
 * Reads a session log for the viewer, with replay's one parser (`parseSessionLogText`, lenient: the minimal format
 * of tests and fixtures is accepted too). A bad line throws `SessionLogParseError` naming the line. Pure.
 *
 * @example
 * const session = parseSessionLog(readFileSync('run.jsonl', 'utf8'));
 * session.events.length;
 */
export function parseSessionLog(text: string, file = '<log>'): SessionForView {
  const parsed = parseSessionLogText(text, file, { lenient: true });
  if ('minimal' in parsed) {
    return {
      config: resolveConfig(parsed.config),
      params: parsed.params,
      events: parsed.events.map((line) => line.event),
      indexes: parsed.events.map((line) => line.index),
    };
  }
  return {
    config: resolveConfig(parsed.header.config as ConfigOverrides),
    params: parsed.header.params,
    events: parsed.events.map((line) => line.event),
    indexes: parsed.events.map((line) => line.index),
    recorded: parsed,
  };
}

/** Writes the minimal log format (tests, fixtures): header with config and params, one line per event. */
export function formatSessionLog(session: { config: LoopConfig | ConfigOverrides; params: LoopParams; events: LoopEvent[] }): string {
  const lines = [
    JSON.stringify({ kind: 'header', config: session.config, params: session.params }),
    ...session.events.map((event, i) => JSON.stringify({ kind: 'event', index: i + 1, event })),
  ];
  return `${lines.join('\n')}\n`;
}
