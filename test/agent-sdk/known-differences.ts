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
export const EVERYWHERE: readonly KnownDifference[] = [];

/** Differences of one program, by its name. */
export const KNOWN_DIFFERENCES: Record<string, readonly KnownDifference[]> = {
  'a subagent (Task)': [
    {
      onlyIn: 'claude',
      lines: ['system task_started', 'system task_updated', 'system task_notification'],
      why: "claude tracks a subagent as a task (started, updated, notification with the report's summary); turnloop sends no task messages (Extension sdkNoProgressMessages)",
    },
  ],
  'the agents option': [
    {
      onlyIn: 'claude',
      lines: ['system task_started', 'system task_updated', 'system task_notification'],
      why: 'as for the subagent program: no task messages in turnloop (Extension sdkNoProgressMessages)',
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
