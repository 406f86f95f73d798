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
 *   compact boundary; a recorded compaction the engine missed only because the transcript does not record all the
 *   context Claude Code counted, as measured on the previous call, is explained (`unrecorded-context.ts`).
 * A run reproduces when all four agree. A session is checked as a tree (`session.ts`): the main thread, then each
 * subagent (2.x `subagents/` file or 1.0.x inline sidechain) as its own run set. Pure: no I/O besides reading the files.
 */
import type { Message } from '../messages/types.ts';
import { checkConfig, driveRun, type DrivenRun } from './drive-run.ts';
import type { LoopConfig } from '../config/config.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import { describeMissedCompaction, explainMissedCompactions, type MissedCompaction } from './unrecorded-context.ts';
import { configForVersion, constantsForVersion } from './version-constants.ts';
import { recordedOutcome } from './recorded-outcome.ts';
import { splitRuns, type RecordedRun } from './runs.ts';
import { finalTextOf } from '../tools/child-runs.ts';
import { readClaudeSession, recordedAgentResult, type ChildTranscript, type NotCheckable } from './session.ts';
import type { Transcript } from './transcript.ts';

export interface RunCheck {
  run: number;
  startLine: number;
  ok: boolean;
  modelCalls: { expected: number; got: number };
  toolResults: { expected: string[]; got: string[]; paired: boolean };
  ending: { recorded: string; expected: string; got: string };
  autocompact: { recorded: number[]; engine: number[]; same: boolean; missed: MissedCompaction[] };
  /** The text the engine's run ended with (what a subagent hands its parent as the Task result), or null. */
  finalText: string | null;
  notes: string[];
  /** Differences that are explained (they do not fail the run). */
  info: string[];
}

export interface TranscriptCheck {
  /** The file the lines are in (the session file for its main thread and its inline sidechains). */
  file: string;
  querySource: string;
  /** For a subagent's run set: where its transcript is and the parent's Task tool_use it ran for (null: unknown). */
  subagent?: {
    format: ChildTranscript['format'];
    startLine: number;
    agentId: string | null;
    toolUseId: string | null;
    unlinked?: string;
    /** Linked subagents whose Task result is recorded: that result vs the text the engine's child run ended with. */
    result?: { recorded: string; engine: string | null; same: boolean };
  };
  lines: number;
  skipped: Record<string, number>;
  /** The release that wrote the lines and the context constants its runs were checked under (`version-constants.ts`). */
  constants: string;
  runs: RunCheck[];
  ok: boolean;
}

export interface SessionCheck {
  file: string;
  /** Every checked run reproduces (subagents that cannot be checked are listed, not counted). */
  ok: boolean;
  /** The main thread first, then one per subagent transcript. */
  transcripts: TranscriptCheck[];
  notCheckable: NotCheckable[];
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

/** A run re-driven for its check: the config it ran under, what the engine did, and the verdict. */
export interface CheckedRun {
  config: LoopConfig;
  driven: DrivenRun;
  check: RunCheck;
}

/** Checks one run. */
export function checkRun(run: RecordedRun, querySource = 'repl_main_thread'): RunCheck {
  return checkRunDriven(run, querySource).check;
}

/** Checks one run and keeps the engine's side (its params and events: what the viewer folds again). */
export function checkRunDriven(run: RecordedRun, querySource = 'repl_main_thread'): CheckedRun {
  const config = configForVersion(checkConfig(run), run.version);
  const driven = driveRun(run, { querySource, config });
  return { config, driven, check: judgeRun(run, config, driven) };
}

function judgeRun(run: RecordedRun, config: LoopConfig, driven: DrivenRun): RunCheck {
  const missed = explainMissedCompactions(run, driven.missedCompactions, driven.callTokens, contextThresholds(run.model, config).autocompact);
  const explained = new Set(missed.filter((m) => m.explained).map((m) => m.call));
  const recordedRun = recordedOutcome(run);
  const expectedResults = run.steps.flatMap((s) => (s.kind === 'tool_result' ? [s.toolUseId] : []));
  const got = emittedToolResultIds(driven.emitted);
  const paired = got.length === expectedResults.length && got.every((id, i) => id === expectedResults[i]);
  const terminal = driven.state.status === 'done' ? (driven.state.context.terminal?.reason ?? '?') : `(not ended: ${JSON.stringify(driven.state.value)})`;
  const expectedTerminal = EXPECTED_TERMINAL[run.ending];
  const endingOk = run.ending === 'incomplete' ? driven.state.status !== 'done' || terminal === 'completed' : terminal === expectedTerminal;
  const recorded = recordedRun.autocompactBeforeCalls;
  const sameCompaction = recorded.filter((call) => !explained.has(call)).join() === driven.engineCompactions.join();
  const notes = [...missed.filter((m) => !m.explained).map(describeMissedCompaction), ...driven.notes];
  const modelCalls = { expected: recordedRun.modelCalls, got: driven.state.context.modelCalls };
  return {
    run: run.index,
    startLine: run.startLine,
    ok: modelCalls.expected === modelCalls.got && paired && endingOk && sameCompaction && notes.length === 0,
    modelCalls,
    toolResults: { expected: expectedResults, got, paired },
    ending: { recorded: run.ending, expected: expectedTerminal, got: terminal },
    autocompact: { recorded, engine: driven.engineCompactions, same: sameCompaction, missed },
    finalText: finalTextOf(driven.emitted),
    notes,
    info: missed.filter((m) => m.explained).map(describeMissedCompaction),
  };
}

/** Checks every run of a parsed transcript. */
export function checkTranscript(transcript: Transcript, querySource = 'repl_main_thread'): TranscriptCheck {
  const runs = splitRuns(transcript).map((run) => checkRun(run, querySource));
  const choice = constantsForVersion(transcript.version);
  const constants = choice.row ? `Claude Code ${choice.version}: ${choice.row.rule}` : (choice.assumed as string);
  return { file: transcript.file, querySource, lines: transcript.lines, skipped: transcript.skipped, constants, runs, ok: runs.every((r) => r.ok) };
}

/** A subagent's run set; a linked one must also end with the text its parent recorded as the Task result. */
function checkChild(child: ChildTranscript, main: Transcript): TranscriptCheck {
  const check = checkTranscript(child.transcript, child.querySource);
  const subagent: NonNullable<TranscriptCheck['subagent']> = { format: child.format, startLine: child.startLine, agentId: child.agentId, toolUseId: child.toolUseId, ...(child.unlinked ? { unlinked: child.unlinked } : {}) };
  const recorded = child.toolUseId === null ? null : recordedAgentResult(main, child.toolUseId);
  // No recorded Task result (the parent was interrupted while it ran): nothing to compare the answer with.
  if (recorded === null) return { ...check, subagent };
  const engine = check.runs[check.runs.length - 1]?.finalText ?? null;
  subagent.result = { recorded, engine, same: recorded === engine };
  return { ...check, subagent, ok: check.ok && subagent.result.same };
}

/**
 * Checks a session: its main thread, then each subagent as its own run set (inline sidechains in file order,
 * then the `subagents/` files), and lists the Task calls whose subagent cannot be checked.
 */
export function checkClaudeSession(file: string, options: { subagents?: boolean } = {}): SessionCheck {
  const session = readClaudeSession(file, options);
  const transcripts = [checkTranscript(session.main), ...session.children.map((child) => checkChild(child, session.main))];
  return { file, ok: transcripts.every((t) => t.ok), transcripts, notCheckable: session.notCheckable };
}
