/**
 * Regular expressions from untrusted hands (a model's Grep pattern, a glob, a log header's redaction pattern) run on
 * RE2 (`re2-wasm`): matching takes time linear in the input, whatever the pattern, so no pattern can freeze the
 * event loop. The price is RE2's syntax: no backreferences and no lookaround (patterns using them are refused with
 * RE2's own message, which names the construct).
 *
 * Invariants:
 * - A pattern longer than `MAX_PATTERN_CHARS` is refused before it reaches RE2: the WASM heap is fixed (16 MB) and a
 *   compile that exhausts it aborts the module for the whole process.
 * - Every compiled expression holds WASM memory until `free()`; a caller that compiles per call frees per call.
 */
import { RE2 } from 're2-wasm';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const MAX_PATTERN_CHARS = 4_096;

/** A pattern RE2 cannot (or will not) run; the message says why. */
export class UnsafePatternError extends TurnloopError {
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super('UNSAFE_PATTERN', reason);
    this.name = 'UnsafePatternError';
  }
}

export interface LinearRegExp {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
  /** [start, end) of every non-overlapping match, in UTF-16 code units. */
  spans(text: string): Array<[number, number]>;
  /** Releases the WASM memory; the expression must not be used afterwards. */
  free(): void;
}

const ALLOWED_FLAGS = /^[gimsuy]*$/;

/** Compiles `source` with RE2, or throws `UnsafePatternError`. Flags are JavaScript's (`u` is implied). */
export function compileLinearRegExp(source: string, flags = ''): LinearRegExp {
  if (source.length > MAX_PATTERN_CHARS) {
    throw new UnsafePatternError(source, `the pattern has ${source.length} characters; at most ${MAX_PATTERN_CHARS} are accepted`);
  }
  if (!ALLOWED_FLAGS.test(flags)) throw new UnsafePatternError(source, `unsupported regular expression flags "${flags}"`);
  const base = [...new Set(`${flags.replace(/[gy]/g, '')}u`)].join('');
  let single: RE2;
  let global: RE2;
  try {
    single = new RE2(source, base);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UnsafePatternError(source, message.replace(/^Invalid regular expression: /, ''));
  }
  try {
    global = new RE2(source, `${base}g`);
  } catch (error) {
    (single as unknown as { wrapper: { delete(): void } }).wrapper.delete();
    const message = error instanceof Error ? error.message : String(error);
    throw new UnsafePatternError(source, message.replace(/^Invalid regular expression: /, ''));
  }
  return {
    source,
    flags,
    test: (text) => single.test(text),
    spans(text) {
      const out: Array<[number, number]> = [];
      global.lastIndex = 0;
      for (let match = global.exec(text); match !== null; match = global.exec(text)) {
        const length = (match[0] ?? '').length;
        out.push([match.index, match.index + length]);
        // An empty match would be found again at the same place.
        if (length === 0) global.lastIndex = match.index + 1;
        if (global.lastIndex > text.length) break;
      }
      return out;
    },
    free() {
      for (const re of [single, global]) (re as unknown as { wrapper: { delete(): void } }).wrapper.delete();
    },
  };
}

const shared = new Map<string, LinearRegExp>();
const MAX_SHARED = 256;

/**
 * A compiled expression shared by every caller with the same source and flags, never freed: for long-lived users
 * (redactors, one per recording or replay), so that replaying many logs does not fill the fixed WASM heap.
 * Past `MAX_SHARED` distinct patterns, compiles are not shared (and not freed).
 */
export function sharedLinearRegExp(source: string, flags = ''): LinearRegExp {
  const key = `${flags}/${source}`;
  const known = shared.get(key);
  if (known) return known;
  const compiled = compileLinearRegExp(source, flags);
  const kept: LinearRegExp = { ...compiled, free: () => undefined };
  if (shared.size < MAX_SHARED) shared.set(key, kept);
  return kept;
}

/** Runs a compile, turning its refusal into the message (for `validateInput`). */
export function tryCompile<T>(compile: () => T): T | string {
  try {
    return compile();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
