/**
 * `check-claude`: does the engine reproduce each loop run of a Claude Code transcript?
 *
 * Per run it compares (see `drive-run.ts` for how the run is driven):
 * - model calls: recorded replies (+1 for a call interrupted before any output) vs the engine's calls;
 * - pairing: the tool_use ids answered by recorded results, in recorded order, vs the tool results the engine
 *   emitted (no synthetic result may appear where the recording has a real one, none may be missing);
 * - ending: completed → `completed`, interrupted during tools → `aborted_tools`, interrupted while the model
 *   streamed → `aborted_streaming`; a transcript that stops mid-run accepts any non-terminal stop;
 * - autocompact: the model call before which the engine compacted vs where the transcript has an automatic
 *   compact boundary.
 * A run reproduces when all four agree. Pure: no I/O besides reading the files.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Message } from '../messages/types.ts';
import { driveRun } from './drive-run.ts';
import { recordedOutcome } from './recorded-outcome.ts';
import { splitRuns, type RecordedRun } from './runs.ts';
import { readTranscript, type Transcript } from './transcript.ts';

export interface RunCheck {
  run: number;
  startLine: number;
  ok: boolean;
  modelCalls: { expected: number; got: number };
  toolResults: { expected: string[]; got: string[]; paired: boolean };
  ending: { recorded: string; expected: string; got: string };
  autocompact: { recorded: number[]; engine: number[]; same: boolean };
  notes: string[];
}

export interface TranscriptCheck {
  file: string;
  querySource: string;
  lines: number;
  skipped: Record<string, number>;
  runs: RunCheck[];
  ok: boolean;
}

const EXPECTED_TERMINAL: Record<RecordedRun['ending'], string> = {
  completed: 'completed',
  aborted_tools: 'aborted_tools',
  aborted_streaming: 'aborted_streaming',
  incomplete: '(none: the transcript stops mid-run)',
};

function emittedToolResultIds(emitted: readonly Message[]): string[] {
  const ids: string[] = [];
  for (const m of emitted) {
    if (m.type !== 'user' || !Array.isArray(m.message.content)) continue;
    for (const b of m.message.content) if (b.type === 'tool_result') ids.push(b.tool_use_id);
  }
  return ids;
}

/** Checks one run. */
export function checkRun(run: RecordedRun, querySource = 'repl_main_thread'): RunCheck {
  const driven = driveRun(run, { querySource });
  const recordedRun = recordedOutcome(run);
  const expectedResults = run.steps.flatMap((s) => (s.kind === 'tool_result' ? [s.toolUseId] : []));
  const got = emittedToolResultIds(driven.emitted);
  const paired = got.length === expectedResults.length && got.every((id, i) => id === expectedResults[i]);
  const terminal = driven.state.status === 'done' ? (driven.state.context.terminal?.reason ?? '?') : `(not ended: ${JSON.stringify(driven.state.value)})`;
  const expectedTerminal = EXPECTED_TERMINAL[run.ending];
  const endingOk = run.ending === 'incomplete' ? driven.state.status !== 'done' || terminal === 'completed' : terminal === expectedTerminal;
  const recorded = recordedRun.autocompactBeforeCalls;
  const sameCompaction = recorded.join() === driven.engineCompactions.join();
  const modelCalls = { expected: recordedRun.modelCalls, got: driven.state.context.modelCalls };
  return {
    run: run.index,
    startLine: run.startLine,
    ok: modelCalls.expected === modelCalls.got && paired && endingOk && sameCompaction && driven.notes.length === 0,
    modelCalls,
    toolResults: { expected: expectedResults, got, paired },
    ending: { recorded: run.ending, expected: expectedTerminal, got: terminal },
    autocompact: { recorded, engine: driven.engineCompactions, same: sameCompaction },
    notes: driven.notes,
  };
}

/** Checks every run of a parsed transcript. */
export function checkTranscript(transcript: Transcript, querySource = 'repl_main_thread'): TranscriptCheck {
  const runs = splitRuns(transcript).map((run) => checkRun(run, querySource));
  return { file: transcript.file, querySource, lines: transcript.lines, skipped: transcript.skipped, runs, ok: runs.every((r) => r.ok) };
}

/** The subagent transcripts of a session file (`<session>/subagents/*.jsonl`), compaction agents included. */
export function subagentFiles(sessionFile: string): string[] {
  const dir = join(dirname(sessionFile), basename(sessionFile, '.jsonl'), 'subagents');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(dir, name));
}

/** The query source a subagent file runs under: `compact` for compaction agents, else `agent:<id>`. */
export function querySourceOf(file: string): string {
  const name = basename(file, '.jsonl');
  if (name.startsWith('agent-acompact')) return 'compact';
  return name.startsWith('agent-') ? `agent:${name.slice('agent-'.length)}` : 'repl_main_thread';
}

/** Checks a session file and its subagent files. */
export function checkClaudeSession(file: string, options: { subagents?: boolean } = {}): TranscriptCheck[] {
  const files = [file, ...(options.subagents === false ? [] : subagentFiles(file))];
  return files.map((path) => checkTranscript(readTranscript(path), path === file ? 'repl_main_thread' : querySourceOf(path)));
}
