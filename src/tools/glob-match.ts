/**
 * A small glob matcher for `/`-separated relative paths. Pure. Supports:
 * - `*`   any run of characters within one path segment;
 * - `**`  any run of whole segments, including none (`a/**` + `/b` matches `a/b` and `a/x/y/b`);
 * - `?`   one character other than `/`;
 * - `{a,b}` alternatives, which may nest and contain the other wildcards;
 * - `\x`  the character `x` literally.
 * Everything else matches itself. A pattern matches the WHOLE path.
 */

const REGEX_SPECIAL = /[.+^$()|[\]\\{}*?]/;

function escapeChar(ch: string): string {
  return REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function findClose(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits the inside of `{...}` at top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function translate(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      out += escapeChar(pattern[++i] ?? '\\');
    } else if (ch === '*' && pattern[i + 1] === '*') {
      const atSegmentStart = i === 0 || pattern[i - 1] === '/';
      i++;
      if (atSegmentStart && pattern[i + 1] === '/') {
        out += '(?:[^/]*/)*';
        i++;
      } else {
        out += '.*';
      }
    } else if (ch === '*') {
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '{') {
      const close = findClose(pattern, i);
      if (close === -1) {
        out += '\\{';
        continue;
      }
      out += `(?:${splitAlternatives(pattern.slice(i + 1, close)).map(translate).join('|')})`;
      i = close;
    } else {
      out += escapeChar(ch);
    }
  }
  return out;
}

/** Compiles a glob to an anchored regular expression. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${translate(pattern)}$`);
}

/**
 * @example
 * matchGlob('src/**' + '/*.ts', 'src/a/b.ts'); // true
 * matchGlob('*.{js,ts}', 'x.ts'); // true
 */
export function matchGlob(pattern: string, relativePath: string): boolean {
  return globToRegExp(pattern).test(relativePath);
}
