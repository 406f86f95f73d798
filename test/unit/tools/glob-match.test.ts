import { describe, expect, it } from 'vitest';
import { matchGlob } from '../../../src/tools/glob-match.ts';

describe('glob matcher', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/b/c/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['**', 'a/b/c', true],
    ['a/**', 'a/b/c', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['a?c', 'ac', false],
    ['*.{js,ts}', 'q.ts', true],
    ['*.{js,ts}', 'q.md', false],
    ['{src,test}/**/*.md', 'test/x/y.md', true],
    ['x{a,{b,c}}', 'xc', true],
    ['file.txt', 'fileXtxt', false],
    ['(a)+[b]', '(a)+[b]', true],
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['{a', '{a', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });
});
