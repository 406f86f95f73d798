/**
 * docs/architecture.md's entry-point table lists every entry point of package.json's `exports`, each with the
 * source file it is built from, and nothing that is not one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string> };
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The rows of the table whose header starts `| import | source |`: import → source. */
function documentedEntries(text: string): Map<string, string> {
  const start = text.indexOf('| import | source |');
  const rows = text.slice(start).split('\n').slice(2);
  const entries = new Map<string, string>();
  for (const row of rows) {
    const match = /^\| `([^`]+)` \| `([^`]+)` \|/.exec(row);
    if (!match) break;
    entries.set(match[1]!, match[2]!);
  }
  return entries;
}

describe('the entry-point table of docs/architecture.md', () => {
  const documented = documentedEntries(doc);
  const exported = new Map(
    Object.entries(pkg.exports)
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => [subpath === '.' ? 'turnloop' : `turnloop/${subpath.slice(2)}`, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')]),
  );

  it('has one row per entry point of package.json, with its source file', () => {
    expect(documented.size).toBeGreaterThan(10);
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...exported].sort()));
  });

  it('includes the explicitly unstable internal entry point', () => {
    expect(documented.get('turnloop/internal')).toBe('src/internal/index.ts');
    expect(readFileSync(join(ROOT, 'src/internal/index.ts'), 'utf8')).toMatch(/UNSTABLE/);
  });
});
