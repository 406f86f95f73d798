/**
 * The differences between claude's and turnloop's message sequences that remain (claude 2.1.334, SDK 0.3.334).
 * Each entry names shape lines (exact, harness/message-shape.ts) that only one engine sends; `comparableShapes`
 * drops exactly those lines before the compare, so any other difference fails the suite. Every entry is a row of
 * docs/agent-sdk-conformance.md and goes to the lead as a fix or a named Extension.
 */
import type { EngineName } from './harness/engines.ts';
import type { Shape } from './harness/message-shape.ts';

export interface KnownDifference {
  /** The engine that sends these lines and the other does not. */
  onlyIn: EngineName;
  lines: readonly Shape[];
  why: string;
}

/** Differences seen in every program where the situation arises. */
export const EVERYWHERE: readonly KnownDifference[] = [
  {
    onlyIn: 'claude',
    lines: ['system thinking_tokens'],
    why: 'claude reports an estimate of the thinking tokens streamed so far (thinking-token-count beta) before a reply with thinking; turnloop does not estimate them',
  },
  {
    onlyIn: 'claude',
    lines: ['system status'],
    why: "with includePartialMessages claude announces `status: 'requesting'` before each request; turnloop sends no status messages",
  },
];

/** Differences of one program, by its name. */
export const KNOWN_DIFFERENCES: Record<string, readonly KnownDifference[]> = {
  'a subagent (Task)': [
    {
      onlyIn: 'claude',
      lines: ['system task_started', 'system task_updated', 'system task_notification'],
      why: "claude tracks a subagent as a task (started, updated, notification with the report's summary); turnloop sends no task messages",
    },
    {
      onlyIn: 'claude',
      lines: ['user (in #0) [text]'],
      why: "claude sends the subagent's prompt as a user message inside the Task call (and, run in the foreground, none of the subagent's assistant messages)",
    },
    {
      onlyIn: 'turnloop',
      lines: ['assistant (in #0) [text]'],
      why: "turnloop sends the subagent's assistant messages inside the Task call, not its prompt",
    },
  ],
  'an API error ending': [
    {
      onlyIn: 'claude',
      lines: ['result success is_error=true terminal_reason=api_error num_turns=1 denials=[]'],
      why: "claude's result after an API error says terminal_reason api_error and has no errors array",
    },
    {
      onlyIn: 'turnloop',
      lines: ['result success is_error=true terminal_reason=completed num_turns=1 errors=1 denials=[]'],
      why: "turnloop's says terminal_reason completed (the loop's own Terminal) and carries the error text in errors too",
    },
  ],
  'an interrupt': [
    {
      onlyIn: 'claude',
      lines: ['result error_during_execution is_error=true terminal_reason=aborted_streaming num_turns=2 errors=1 denials=[]'],
      why: 'claude counts the interrupted request as a second turn (num_turns 2 after one request); turnloop counts one',
    },
    {
      onlyIn: 'turnloop',
      lines: ['result error_during_execution is_error=true terminal_reason=aborted_streaming num_turns=1 errors=1 denials=[]'],
      why: 'the same result as claude but for num_turns (see above)',
    },
  ],
};

/** The lines of one program's differences that `engine` sends (each must still be seen, or the entry is stale). */
export function differenceLines(program: string, engine: EngineName): Shape[] {
  return (KNOWN_DIFFERENCES[program] ?? []).filter((d) => d.onlyIn === engine).flatMap((d) => d.lines);
}

export function comparableShapes(program: string, engine: EngineName, shapes: readonly Shape[]): Shape[] {
  const differences = [...EVERYWHERE, ...(KNOWN_DIFFERENCES[program] ?? [])];
  const drop = new Set(differences.filter((d) => d.onlyIn === engine).flatMap((d) => d.lines));
  return shapes.filter((line) => !drop.has(line));
}
