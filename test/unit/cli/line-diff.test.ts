/** The demo's unified line diff: the same hunks as `diff -u`. */
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/cli/demo/line-diff.ts';

const names = { oldName: 'a/f', newName: 'b/f' };
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);
const text = (ls: string[]) => `${ls.join('\n')}\n`;

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', names)).toBe('');
  });

  it('shows a change with three lines of context', () => {
    const after = lines(10);
    after[4] = 'changed';
    expect(unifiedDiff(text(lines(10)), text(after), names)).toBe(
      ['--- a/f', '+++ b/f', '@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+changed', ' line 6', ' line 7', ' line 8', ''].join('\n'),
    );
  });

  it('splits distant changes into hunks and counts added and removed lines', () => {
    const after = lines(20);
    after.splice(1, 1);
    after.push('new last');
    expect(unifiedDiff(text(lines(20)), text(after), names)).toBe(
      [
        '--- a/f', '+++ b/f',
        '@@ -1,5 +1,4 @@', ' line 1', '-line 2', ' line 3', ' line 4', ' line 5',
        '@@ -18,3 +17,4 @@', ' line 18', ' line 19', ' line 20', '+new last',
        '',
      ].join('\n'),
    );
  });

  it('diffs a new file against nothing', () => {
    expect(unifiedDiff('', 'x\ny\n', names)).toBe(['--- a/f', '+++ b/f', '@@ -0,0 +1,2 @@', '+x', '+y', ''].join('\n'));
  });
});
