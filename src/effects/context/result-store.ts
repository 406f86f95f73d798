/**
 * Where the tool-result budget (layer 0) puts the full text of a result it replaced by a preview.
 *
 * Invariant: `pointerFor` is a pure function of (sessionId, toolUseId), so the pure layer can write the pointer
 * into the preview before the text is stored; `put` stores the text at exactly that pointer and returns it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface ToolResultStore {
  /** Where the full text of this result is (or will be) stored. */
  pointerFor(sessionId: string, toolUseId: string): string;
  /** Stores the full text; returns its pointer (equal to `pointerFor`). */
  put(sessionId: string, toolUseId: string, content: string): Promise<string>;
}

/**
 * Keeps ids usable as one path segment (tool_use ids are `[A-Za-z0-9_-]`): other characters become `_`, and a
 * leading dot gets a `_` prefix so that no id can name `.` or `..`.
 */
function safeName(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_.-]/g, '_');
  return cleaned === '' || cleaned.startsWith('.') ? `_${cleaned}` : cleaned;
}

export interface FileToolResultStoreOptions {
  /** Root of the session directories; default `.turnloop/sessions` (relative to the working directory). */
  root?: string;
}

/** Stores results as `<root>/<sessionId>/tool-results/<toolUseId>.txt`. */
export function createFileToolResultStore(options: FileToolResultStoreOptions = {}): ToolResultStore {
  const root = options.root ?? join('.turnloop', 'sessions');
  const pointerFor = (sessionId: string, toolUseId: string) =>
    join(root, safeName(sessionId), 'tool-results', `${safeName(toolUseId)}.txt`);
  return {
    pointerFor,
    async put(sessionId, toolUseId, content) {
      const path = pointerFor(sessionId, toolUseId);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, 'utf8');
      return path;
    },
  };
}

export interface MemoryToolResultStore extends ToolResultStore {
  /** Stored texts by pointer. */
  readonly entries: Map<string, string>;
}

/** An in-memory store for tests; pointers look like `memory://<sessionId>/<toolUseId>`. */
export function createMemoryToolResultStore(): MemoryToolResultStore {
  const entries = new Map<string, string>();
  const pointerFor = (sessionId: string, toolUseId: string) => `memory://${sessionId}/${toolUseId}`;
  return {
    entries,
    pointerFor,
    async put(sessionId, toolUseId, content) {
      const pointer = pointerFor(sessionId, toolUseId);
      entries.set(pointer, content);
      return pointer;
    },
  };
}
