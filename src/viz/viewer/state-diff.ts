/**
 * What one step changed in the loop state: a structural diff of two states, as a list of paths with their old
 * and new values. The reducer never mutates a state and keeps unchanged parts by reference, so any subtree that
 * is `===` in both is skipped without looking inside: the cost follows what changed, not the size of the state.
 * Arrays are compared index by index (history only grows at the end or is replaced wholesale). Pure.
 *
 * @example
 * diffValues({ a: 1, b: [1] }, { a: 2, b: [1, 2] });
 * // [{ path: 'a', kind: 'changed', before: 1, after: 2 }, { path: 'b[1]', kind: 'added', after: 2 }]
 */

export interface Change {
  /** `context.turnCount`, `context.messages[12]`, `value`. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** The most changes one diff reports (a compaction can replace thousands of messages at once). */
export const MAX_CHANGES = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function walk(before: unknown, after: unknown, path: string, out: Change[]): void {
  if (before === after || out.length >= MAX_CHANGES) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    const shared = Math.min(before.length, after.length);
    for (let i = 0; i < shared && out.length < MAX_CHANGES; i++) walk(before[i], after[i], childPath(path, i), out);
    for (let i = shared; i < after.length && out.length < MAX_CHANGES; i++) out.push({ path: childPath(path, i), kind: 'added', after: after[i] });
    for (let i = shared; i < before.length && out.length < MAX_CHANGES; i++) out.push({ path: childPath(path, i), kind: 'removed', before: before[i] });
    return;
  }
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    for (const key of Object.keys(after)) {
      if (out.length >= MAX_CHANGES) return;
      if (!(key in before)) {
        if (after[key] !== undefined) out.push({ path: childPath(path, key), kind: 'added', after: after[key] });
      } else walk(before[key], after[key], childPath(path, key), out);
    }
    for (const key of Object.keys(before)) {
      if (out.length >= MAX_CHANGES) return;
      if (!(key in after) && before[key] !== undefined) out.push({ path: childPath(path, key), kind: 'removed', before: before[key] });
    }
    return;
  }
  // Different primitives, or a value that changed kind (null → object, object → array...).
  if (Number.isNaN(before) && Number.isNaN(after)) return;
  out.push({ path, kind: 'changed', before, after });
}

/** The changes from `before` to `after`, at most `MAX_CHANGES` of them, in document order. */
export function diffValues(before: unknown, after: unknown, path = ''): Change[] {
  const out: Change[] = [];
  walk(before, after, path, out);
  return out;
}
