/**
 * Layers never import upward (docs/architecture.md). Every folder of `src/` has a rank; a file may import its own
 * rank or below. A new folder must be given its rank here, so the layout is decided, not drifted into.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** Bottom to top. */
export const LAYER_RANKS: Record<string, number> = {
  config: 0, messages: 0, reducer: 0, machine: 0, errors: 0,
  context: 1,
  effects: 2, tools: 2,
  'fake-api': 3, replay: 3, mcp: 3, otel: 3,
  scenario: 4, testing: 4,
  claude: 5,
  agents: 2,
  bounds: 4,
  viz: 6,
  inspector: 6,
  // durableQuery() is an API wrapper like query(), sharing its boundary (src/api/run-options.ts); dbos runs it.
  api: 7, internal: 7, durable: 7, dbos: 7,
  'agent-sdk': 7.5,
  cli: 8,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

/** The top folder of `src/` a path lies in, or null for files directly in `src/` (entry points, above all). */
function layerOf(path: string): string | null {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1] ?? m[2]));
}

describe('layers', () => {
  const files = sourceFiles(SRC);

  it('gives every folder of src/ a rank', () => {
    const folders = [...new Set(files.map(layerOf).filter((l): l is string => l !== null))];
    expect(folders.filter((folder) => !(folder in LAYER_RANKS))).toEqual([]);
  });

  it('never imports a higher layer', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (from === null) continue;
      for (const target of relativeImports(file)) {
        const to = layerOf(target);
        if (to === null || LAYER_RANKS[to] > LAYER_RANKS[from]) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the pure core free of the interpreter', () => {
    // A sanity check that the test sees imports at all: the reducer imports the machine.
    const reducerImports = files.filter((f) => layerOf(f) === 'reducer').flatMap(relativeImports);
    expect(reducerImports.some((target) => layerOf(target) === 'machine')).toBe(true);
  });
});
