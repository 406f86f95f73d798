/**
 * A small line diff in unified format (`diff -u` style): longest common subsequence of lines, then hunks with
 * `context` unchanged lines around each change. Pure; quadratic in the file length, meant for small files.
 */

type Op = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`: kept, removed and added lines in order. */
export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) ops.push({ kind: '-', line: a[i++] });
    else ops.push({ kind: '+', line: b[j++] });
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] });
  while (j < m) ops.push({ kind: '+', line: b[j++] });
  return ops;
}

export interface UnifiedDiffOptions {
  oldName: string;
  newName: string;
  context?: number;
}

/**
 * The unified diff of two texts; empty string when they are equal.
 *
 * @example
 * unifiedDiff('a\nb\n', 'a\nc\n', { oldName: 'a/x.ts', newName: 'b/x.ts' })
 * // '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const ops = diffLines(splitLines(oldText), splitLines(newText));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return ''; // only the final newline differs
  // Group changes whose context windows touch into one hunk: [first op, last op] inclusive.
  const ranges: Array<[number, number]> = [];
  for (const index of changed) {
    const start = Math.max(0, index - context);
    const end = Math.min(ops.length - 1, index + context);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1] + 1) last[1] = end;
    else ranges.push([start, end]);
  }
  const out = [`--- ${options.oldName}`, `+++ ${options.newName}`];
  // Line numbers (1-based) of the old and new file at each op.
  let oldLine = 1;
  let newLine = 1;
  const positions = ops.map((op) => {
    const at = { oldLine, newLine };
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
    return at;
  });
  for (const [start, end] of ranges) {
    const slice = ops.slice(start, end + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount === 0 ? positions[start].oldLine - 1 : positions[start].oldLine;
    const newStart = newCount === 0 ? positions[start].newLine - 1 : positions[start].newLine;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
  }
  return `${out.join('\n')}\n`;
}
