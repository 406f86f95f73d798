/**
 * The differences between claude's and turnloop's message sequences that remain, per program. Each entry names the
 * shape lines one engine sends and the other does not; `comparableShapes` drops exactly those before the compare.
 * Every entry is a row of docs/agent-sdk-conformance.md and is reported to become a fidelity Extension or a fix.
 */
import type { EngineName } from './harness/engines.ts';
import type { Shape } from './harness/message-shape.ts';

export interface KnownDifference {
  /** Shape lines (exact) that only this engine sends. */
  onlyIn: EngineName;
  lines: readonly Shape[];
  why: string;
}

export const KNOWN_DIFFERENCES: Record<string, readonly KnownDifference[]> = {};

export function comparableShapes(program: string, engine: EngineName, shapes: readonly Shape[]): Shape[] {
  const drop = new Set((KNOWN_DIFFERENCES[program] ?? []).filter((d) => d.onlyIn === engine).flatMap((d) => d.lines));
  return shapes.filter((line) => !drop.has(line));
}
