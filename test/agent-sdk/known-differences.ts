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

/**
 * What the public programs (public-programs.test.ts) print differently on the two engines: exact printed lines
 * that only one engine's run prints. The suite drops exactly these before comparing, and fails when one is no
 * longer printed (a fixed difference must leave the list). Each is a row of docs/agent-sdk-conformance.md.
 */
export interface PrintedDifference {
  onlyIn: EngineName;
  printed: readonly string[];
  /** Files (paths under the working directory) only this engine writes. */
  files?: readonly string[];
  /** When the program's return value differs: what this engine's run returns. */
  returned?: unknown;
  why: string;
}

export const PUBLIC_DIFFERENCES: Record<string, readonly PrintedDifference[]> = {
};

/** The printed lines of one public program that only `engine` prints (each must still be printed). */
export function printedDifferenceLines(program: string, engine: EngineName): string[] {
  return (PUBLIC_DIFFERENCES[program] ?? []).filter((d) => d.onlyIn === engine).flatMap((d) => d.printed);
}

/** The files of one public program that only `engine` writes (each must still be written). */
export function fileDifferences(program: string, engine: EngineName): string[] {
  return (PUBLIC_DIFFERENCES[program] ?? []).filter((d) => d.onlyIn === engine).flatMap((d) => d.files ?? []);
}

/** What `engine`'s run of a public program returns, when that is a listed difference. */
export function returnedDifference(program: string, engine: EngineName): { returned: unknown } | undefined {
  const listed = (PUBLIC_DIFFERENCES[program] ?? []).find((d) => d.onlyIn === engine && 'returned' in d);
  return listed ? { returned: listed.returned } : undefined;
}

/** Files only turnloop writes in the working directory: its session logs and its subagents' (`<id>.agents/`) (Extension `sdkSessionLog`). */
export const TURNLOOP_ONLY_FILES = /^\.turnloop\/sessions\//;
