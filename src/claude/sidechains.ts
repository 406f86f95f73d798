/**
 * Splitting a session file into its threads: the main thread and one inline sidechain per subagent.
 *
 * Claude Code 1.0.x writes each Task subagent's lines into the session file itself, marked `isSidechain: true`,
 * on their own `parentUuid` chain whose first line has `parentUuid: null`; lines of concurrent subagents (and of
 * the main thread) interleave in time order. 2.x writes them to `<session>/subagents/agent-*.jsonl` instead, where
 * every line is a sidechain line.
 *
 * Invariants:
 * - A line without `isSidechain: true` belongs to the main thread, whatever its parent.
 * - A sidechain line belongs to the thread of its parent when the parent is a sidechain line of the same file
 *   (chains are followed through every line type, progress and system lines included, and in either direction of
 *   the file); otherwise (null parent, a main-thread parent, an unknown parent) it starts a thread of its own.
 * - Each thread keeps its lines in file order with their file line numbers; nothing is dropped or reordered.
 * - A sidechain user or assistant line without a `uuid` cannot be placed: bad input, never guessed.
 * Pure.
 */
import { TranscriptFormatError, type Json, type TranscriptLine } from './transcript.ts';

export interface InlineSidechain {
  /** The `uuid` of the thread's first line. */
  rootUuid: string;
  /** File line of the thread's first line. */
  startLine: number;
  /** The `parentUuid` of the first line when it points outside the thread (e.g. a fork off the main thread). */
  forkedFrom: string | null;
  /** The `agentId` written on the first line (2.x writes one; 1.0.x does not). */
  agentId: string | null;
  lines: TranscriptLine[];
}

export interface SessionThreads {
  main: TranscriptLine[];
  /** In the order of their first lines. */
  sidechains: InlineSidechain[];
}

const isSidechainLine = (json: Json) => json.isSidechain === true;
const uuidOf = (json: Json) => (typeof json.uuid === 'string' ? json.uuid : null);
const parentOf = (json: Json) => (typeof json.parentUuid === 'string' ? json.parentUuid : null);

/** @example splitThreads(parseTranscriptLines(text, file), file).sidechains.map((s) => s.startLine) // [45, 691] */
export function splitThreads(lines: readonly TranscriptLine[], file = '<transcript>'): SessionThreads {
  const sidechainByUuid = new Map<string, TranscriptLine>();
  for (const l of lines) {
    const uuid = uuidOf(l.json);
    if (uuid !== null && isSidechainLine(l.json)) sidechainByUuid.set(uuid, l);
  }
  const rootOf = new Map<string, string>();
  /** The uuid of the first line of the thread `uuid` is on (walks up the parent chain, memoized). */
  const findRoot = (uuid: string): string => {
    const path: string[] = [];
    let current = uuid;
    while (!rootOf.has(current)) {
      path.push(current);
      const parent = parentOf((sidechainByUuid.get(current) as TranscriptLine).json);
      // A cycle (corrupt file) stops the walk at the line where it closes, which then roots the thread.
      if (parent === null || !sidechainByUuid.has(parent) || path.includes(parent)) break;
      current = parent;
    }
    const root = rootOf.get(current) ?? current;
    for (const u of path) rootOf.set(u, root);
    return root;
  };

  const main: TranscriptLine[] = [];
  const threads = new Map<string, InlineSidechain>();
  for (const l of lines) {
    if (!isSidechainLine(l.json)) {
      main.push(l);
      continue;
    }
    const uuid = uuidOf(l.json);
    if (uuid === null) {
      if (l.json.type === 'user' || l.json.type === 'assistant') throw new TranscriptFormatError(file, l.line, 'expected a "uuid" on a sidechain line (isSidechain: true), to place it in its thread');
      main.push(l);
      continue;
    }
    const root = findRoot(uuid);
    let thread = threads.get(root);
    if (!thread) {
      const first = (sidechainByUuid.get(root) as TranscriptLine).json;
      thread = { rootUuid: root, startLine: l.line, forkedFrom: parentOf(first), agentId: typeof first.agentId === 'string' ? first.agentId : null, lines: [] };
      threads.set(root, thread);
    }
    thread.lines.push(l);
  }
  return { main, sidechains: [...threads.values()] };
}
