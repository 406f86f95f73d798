/**
 * An upper estimate of what a regular expression compiles to, read from its text before RE2 sees it: a short
 * pattern can expand enormously (`\pL{1000}` is a thousand copies of a class of hundreds of Unicode ranges), and
 * compiling it takes seconds and exhausts the engine's fixed heap (`re2-engine.ts`). Counted in rough program
 * units: a literal 1, `\w`/`\d`/`\s` 4, `.` and negated classes 10, a bracket class its length, a Unicode property
 * (`\p{…}`, `\P…`) 500; a group is the sum of its parts, `{n,m}` multiplies what it repeats by its largest count,
 * and case folding doubles everything. Calibrated against the engine: `.{1000}`, `[^a]{1000}`,
 * `(?i)[a-z]{1000}` and `\pL{40}` fit in `MAX_PATTERN_UNITS`; `\pL{100}` (which exhausts the heap) does not.
 */

/** The largest estimate accepted. */
export const MAX_PATTERN_UNITS = 20_000;

const UNICODE_CLASS = 500;
const WIDE = 10;
const SHORTHAND = 4;

/** Where a bracket class `[...]` that starts at `start` ends (the index of its `]`), or the end of the text. */
function bracketEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[' && source[i + 1] === ':') {
      const close = source.indexOf(':]', i + 2);
      if (close !== -1) i = close + 1;
    } else if (source[i] === ']') return i;
  }
  return source.length;
}

/** The weight of an escape at `i` (a backslash) and where it ends. */
function escapeAt(source: string, i: number): { weight: number; end: number } {
  const c = source[i + 1] ?? '';
  if (c === 'p' || c === 'P') {
    const end = source[i + 2] === '{' ? Math.max(source.indexOf('}', i + 2), i + 2) + 1 : i + 3;
    return { weight: UNICODE_CLASS, end };
  }
  if ('wdsb'.includes(c)) return { weight: SHORTHAND, end: i + 2 };
  if ('WDSB'.includes(c)) return { weight: WIDE, end: i + 2 };
  if ((c === 'x' || c === 'u') && source[i + 2] === '{') return { weight: 1, end: Math.max(source.indexOf('}', i + 2), i + 2) + 1 };
  return { weight: 1, end: i + 2 };
}

/** The weight of a bracket class `source.slice(start, end + 1)`. */
function bracketWeight(source: string, start: number, end: number): number {
  const body = source.slice(start + 1, end);
  const unicode = (body.match(/\\[pP]/g) ?? []).length;
  return 1 + body.length + unicode * UNICODE_CLASS + (body.startsWith('^') ? WIDE : 0);
}

/** The estimate for `source` compiled with `flags` (JavaScript flags; `i` folds case). */
export function estimatePatternUnits(source: string, flags = ''): number {
  // Each open group: the sum so far, and the weight of the last unit (what a following repetition multiplies).
  const groups: Array<{ total: number; last: number }> = [{ total: 0, last: 0 }];
  const add = (weight: number) => {
    const group = groups[groups.length - 1]!;
    group.total += weight;
    group.last = weight;
  };
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '\\') {
      const { weight, end } = escapeAt(source, i);
      add(weight);
      i = end;
    } else if (c === '[') {
      const end = bracketEnd(source, i);
      add(bracketWeight(source, i, end));
      i = end + 1;
    } else if (c === '(') {
      groups.push({ total: 0, last: 0 });
      i++;
      // A group's own syntax (`?:`, `?P<name>`, `?i`) is not matched text.
      if (source[i] === '?') while (i < source.length && !':)'.includes(source[i]!) && source[i] !== '>') i++;
      if (source[i] === ':' || source[i] === '>') i++;
    } else if (c === ')') {
      const group = groups.length > 1 ? groups.pop()! : { total: 0, last: 0 };
      add(group.total);
      i++;
    } else if (c === '|') {
      groups[groups.length - 1]!.last = 0;
      i++;
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i, i + 24))) {
      const [, low, high] = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 24))!;
      const times = Math.max(Number(low), high ? Number(high) : 0, 1);
      const group = groups[groups.length - 1]!;
      group.total += group.last * (times - 1);
      group.last *= times;
      i = source.indexOf('}', i) + 1;
    } else {
      add(c === '.' ? WIDE : '*+?'.includes(c) ? 0 : 1);
      i++;
    }
  }
  let total = 0;
  for (const group of groups) total += group.total;
  return flags.includes('i') || source.includes('(?i') ? total * 2 : total;
}
