/**
 * The pure core holds no module-level mutable state (STYLE "functional core"; docs/architecture.md): no top-level
 * `let`/`var`, and no module-level object built with `new` (a `Map`, `WeakMap`, memo, ...) or empty array or object in `src/reducer`
 * or `src/machine`. Whatever a caller may keep between steps (the macrostep memo, a trace) is an object the caller
 * owns (`createStepper`, `createTraceCollector`).
 */
import { describe, expect, it } from 'vitest';
import { coreOffenders } from '../helpers/core-sources.ts';

/** Top-level statements only: lines that start at column 0 (the house format indents everything nested). */
export function moduleStateIn(source: string): string[] {
  const found: string[] = [];
  for (const line of source.split('\n')) {
    if (/^(export\s+)?(let|var)\s/.test(line)) found.push(line.trim());
    else if (/^(export\s+)?const\s+\w+[^=]*=\s*new\s+\w+/.test(line)) found.push(line.trim());
    else if (/^(export\s+)?const\s+\w+[^=]*=\s*(\[\]|\{\})\s*;/.test(line)) found.push(line.trim());
  }
  return found;
}

describe('module-level state in the pure core', () => {
  it('finds none in src/reducer and src/machine', () => {
    expect(coreOffenders(moduleStateIn)).toEqual([]);
  });

  it('would notice a top-level let, a module cache or an empty module array (the check can fail)', () => {
    expect(moduleStateIn('let sharedScope: Scope | null = null;')).toHaveLength(1);
    expect(moduleStateIn('const cache = new WeakMap<object, string>();')).toHaveLength(1);
    expect(moduleStateIn('export const seen: string[] = [];')).toHaveLength(1);
    expect(moduleStateIn('const memo = new MemoCache();')).toHaveLength(1);
    expect(moduleStateIn('  let local = 1;\nconst LIMIT = 3;\n  private readonly roots = new Map();')).toEqual([]);
  });
});
