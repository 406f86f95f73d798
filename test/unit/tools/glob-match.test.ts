import { describe, expect, it } from 'vitest';
import { compileGlob, matchGlob } from '../../../src/tools/builtin/glob-match.ts';

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
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['+(a|b).js', 'abba.js', true],
    ['{1..3}.txt', '2.txt', true],
    ['{1..3}.txt', '4.txt', false],
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['.env', '.env', true],
    ['*', '.env', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });
});

describe('glob matcher on hostile patterns', () => {
  it('runs many stars in linear time (picomatch\'s own expression backtracks for minutes on this)', () => {
    expect(matchGlob(`${'*a'.repeat(12)}*b`, 'a'.repeat(5_000))).toBe(false);
    expect(matchGlob(`${'**/'.repeat(40)}x`, `${'a/'.repeat(2_000)}y`)).toBe(false);
  });

  it('refuses negated extglobs and over-long patterns with a message', () => {
    expect(() => compileGlob('!(a).js')).toThrow(/negated extglobs/);
    expect(() => compileGlob('a'.repeat(5_000))).toThrow(/at most 4096/);
  });
});
