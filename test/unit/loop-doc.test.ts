/**
 * Citations resolve: every `docs/loop.md §N` (or a range `§4.1-4`) in src/, test/, docs/, the README and the
 * examples names a numbered heading of docs/loop.md, and nothing cites a spec outside the repository any more.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SEARCHED = ['src', 'test', 'docs', 'examples', 'README.md'];
const CITATION = /docs\/loop\.md (?:\\u00a7|§)(\d+(?:\.\d+)*)(?:[-–](\d+(?:\.\d+)*))?/g;

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (/\.(ts|mts|md|json|jsonl)$/.test(path)) return [full];
  try {
    return readdirSync(full, { withFileTypes: true }).flatMap((entry) =>
      entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : files(join(path, entry.name)),
    );
  } catch {
    return [];
  }
}

/** The section numbers docs/loop.md defines: headings that start with `§N`. */
export function loopSections(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{2,4} §(\d+(?:\.\d+)*) /gm)].map((match) => match[1]!));
}

/** Both ends of a citation; a short end replaces the start's last parts (`4.1-4` → 4.1 and 4.4). */
export function citedSections(start: string, end: string | undefined): string[] {
  if (end === undefined) return [start];
  const head = start.split('.');
  const tail = end.split('.');
  return [start, [...head.slice(0, Math.max(0, head.length - tail.length)), ...tail].join('.')];
}

describe('docs/loop.md citations', () => {
  const sections = loopSections(readFileSync(join(ROOT, 'docs/loop.md'), 'utf8'));
  const all = SEARCHED.flatMap(files);

  it('docs/loop.md numbers §1 to §11 and the sub-sections code cites', () => {
    for (let n = 1; n <= 11; n++) expect(sections.has(String(n)), `§${n}`).toBe(true);
    for (const sub of ['4.5', '4.9.4', '7.3', '9.3', '9.10']) expect(sections.has(sub), `§${sub}`).toBe(true);
  });

  it('every docs/loop.md § citation names a heading of docs/loop.md', () => {
    const dangling: string[] = [];
    let count = 0;
    for (const file of all) {
      for (const match of readFileSync(file, 'utf8').matchAll(CITATION)) {
        count++;
        for (const section of citedSections(match[1]!.replace(/\.$/, ''), match[2]?.replace(/\.$/, ''))) {
          if (!sections.has(section)) dangling.push(`${relative(ROOT, file)}: §${section}`);
        }
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(dangling).toEqual([]);
  });

  it('nothing cites the spec outside the repository', () => {
    const outside = all.filter((file) => /\bSPEC (§|\\u00a7)/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(outside).toEqual([]);
  });

  it('reads ranges and single sections', () => {
    expect(citedSections('4.1', '4')).toEqual(['4.1', '4.4']);
    expect(citedSections('4.10', '15')).toEqual(['4.10', '4.15']);
    expect(citedSections('7.5', '7.6')).toEqual(['7.5', '7.6']);
    expect(citedSections('9.3', undefined)).toEqual(['9.3']);
    expect(loopSections('## §4 A\n### §4.9 B\n#### §4.9.1 C\n§5 not a heading')).toEqual(new Set(['4', '4.9', '4.9.1']));
  });
});
