/**
 * Glob matching for `/`-separated relative paths: picomatch defines the language (`*`, `**`, `?`, `[a-z]`, `{a,b}`,
 * `{1..3}`, `+(a|b)`, `\x`), RE2 runs it (see `linear-regexp.ts`), so a pattern with many stars cannot backtrack
 * for seconds as picomatch's own regular expression would. Dotfiles match like any file.
 *
 * picomatch's expression carries three lookarounds that RE2 lacks; each only rejects `.`/`..` segments or the empty
 * path, which the walker never yields (its paths are normalised), so they are dropped. Patterns that need real
 * lookaround (negated extglobs such as `!(a).js`) are refused with a clear message.
 */
import picomatch from 'picomatch';
import { compileLinearRegExp, MAX_PATTERN_CHARS, UnsafePatternError, type LinearRegExp } from './linear-regexp.ts';
import { messageOf } from '../../errors/message-of.ts';

const NO_OP_LOOKAROUNDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?=.)'];

/** Compiles a glob to a linear-time matcher of whole relative paths, or throws `UnsafePatternError`. */
export function compileGlob(pattern: string): LinearRegExp {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new UnsafePatternError(pattern, `the glob has ${pattern.length} characters; at most ${MAX_PATTERN_CHARS} are accepted`);
  }
  let source: string;
  try {
    source = picomatch.makeRe(pattern, { dot: true }).source;
  } catch (error) {
    throw new UnsafePatternError(pattern, `not a valid glob: ${messageOf(error)}`);
  }
  for (const lookaround of NO_OP_LOOKAROUNDS) source = source.split(lookaround).join('');
  if (/\(\?<?[=!]/.test(source)) throw new UnsafePatternError(pattern, 'negated extglobs such as !(x) are not supported');
  try {
    return compileLinearRegExp(source);
  } catch (error) {
    throw new UnsafePatternError(pattern, `this glob cannot be run: ${messageOf(error)}`);
  }
}

/**
 * @example
 * matchGlob('src/**' + '/*.ts', 'src/a/b.ts'); // true
 * matchGlob('*.{js,ts}', 'x.ts'); // true
 */
export function matchGlob(pattern: string, relativePath: string): boolean {
  const matcher = compileGlob(pattern);
  try {
    return matcher.test(relativePath);
  } finally {
    matcher.free();
  }
}
