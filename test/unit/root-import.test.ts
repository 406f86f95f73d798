/**
 * What importing the package root loads (issue 17: root import ≤ 150 ms, measured by `npm run bench`). zod alone
 * costs ~150 ms to load and the Anthropic SDK ~400 ms, so the root's static import graph must reach neither: the
 * SDK loads on the first model call, zod with the entry points that validate (`turnloop/replay`, scenarios...).
 * This walks the static value imports of `src/index.ts` (type-only imports and `import()` are not loaded at import
 * time) and lists the packages they reach; no timing here, the bench times it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../src/index.ts');

/** Static `import … from` / `export … from` / bare `import '…'` statements, with whether they are type-only. */
const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function staticValueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(STATIC)) {
    if (m[5]) {
      out.push(m[5]);
      continue;
    }
    if (m[2]) continue;
    // `import { type A, type B } from` loads nothing either.
    const names = m[3].trim();
    if (/^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim()))) continue;
    out.push(m[4]);
  }
  return out;
}

function reachablePackages(entry: string): { packages: Set<string>; files: number } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticValueImports(file)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
    }
  }
  return { packages, files: seen.size };
}

describe('the package root', () => {
  it('loads xstate and nothing heavier (no zod, no Anthropic SDK) at import time', () => {
    const { packages, files } = reachablePackages(ROOT);
    expect(files).toBeGreaterThan(20);
    expect([...packages].sort()).toEqual(['xstate']);
  });

  it('the walk sees value imports of zod where they are (the replay entry point validates with zod)', () => {
    expect(reachablePackages(resolve(import.meta.dirname, '../../src/replay/index.ts')).packages.has('zod')).toBe(true);
  });
});
