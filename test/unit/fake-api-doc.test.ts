/**
 * docs/fake-api.md keeps one row per rule the strict fake API checks: every rule of `validate-request.ts` (and the
 * context window) has a row, every row names a rule that exists, and every test a row names exists and pins that
 * rule by name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUEST_RULE_NAMES } from '../../src/fake-api/index.ts';
import { REPO_ROOT } from './cli/capture-io.ts';

const doc = readFileSync(join(REPO_ROOT, 'docs/fake-api.md'), 'utf8');
const rows = doc
  .split('\n')
  .filter((line) => /^\| `[a-z_]+` \|/.test(line))
  .map((line) => ({ rule: /^\| `([a-z_]+)`/.exec(line)![1], tests: [...line.split('|').at(-2)!.matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1]) }));
const ALL_RULES = [...REQUEST_RULE_NAMES, 'context_window'];

describe('docs/fake-api.md', () => {
  it('has one row per checked rule, in the order they run, and no row for a rule that does not exist', () => {
    expect(rows.map((row) => row.rule)).toEqual(ALL_RULES);
  });

  it.each(rows.map((row) => [row.rule, row.tests] as const))('%s is pinned by the tests its row names', (rule, tests) => {
    expect(tests.length).toBeGreaterThan(0);
    for (const test of tests) {
      expect(existsSync(join(REPO_ROOT, test)), `${test} exists`).toBe(true);
      const source = readFileSync(join(REPO_ROOT, test), 'utf8');
      const named = source.includes(`'${rule}'`) || (rule === 'context_window' && source.includes('prompt is too long'));
      expect(named, `${test} names ${rule}`).toBe(true);
    }
  });
});
