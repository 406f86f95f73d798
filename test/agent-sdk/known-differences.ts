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
    why: 'claude reports an estimate of the thinking tokens streamed so far (thinking-token-count beta) before a reply with thinking; turnloop does not estimate them (Extension sdkNoProgressMessages)',
  },
];

/** Differences of one program, by its name. */
export const KNOWN_DIFFERENCES: Record<string, readonly KnownDifference[]> = {
  'fallbackModel after overloads': [
    {
      onlyIn: 'claude',
      lines: ['system api_retry'],
      why: 'claude reports each retry it waits for (attempt, delay, status); turnloop retries without telling the program (Extension sdkNoProgressMessages)',
    },
  ],
  'a PreToolUse hook that stops a denied call': [
    {
      onlyIn: 'claude',
      lines: ['system permission_denied'],
      why: 'claude also announces a denial as a system message before its tool_result; turnloop reports it in the tool_result and permission_denials only',
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
