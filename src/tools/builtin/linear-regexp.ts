/**
 * Regular expressions from untrusted hands (a model's Grep pattern, a glob, a log header's redaction pattern) run on
 * RE2 (`re2-wasm`): matching takes time linear in the input, whatever the pattern, so no pattern can freeze the
 * event loop. The price is RE2's syntax: no backreferences and no lookaround (patterns using them are refused with
 * RE2's own message, which names the construct).
 *
 * Invariants:
 * - A pattern longer than `MAX_PATTERN_CHARS`, or whose estimated compiled size is over `MAX_PATTERN_UNITS`
 *   (`pattern-size.ts`: `\pL{1000}` is 10 characters and thousands of Unicode ranges), is refused before it reaches
 *   RE2. A compile that still exhausts the engine's fixed heap aborts the engine: it is refused for this call only,
 *   and the engine is replaced by a fresh instance (`re2-engine.ts`), so later compiles work and the memory is
 *   reclaimed.
 * - Every compiled expression holds WASM memory until `free()`; a caller that compiles per call frees per call.
 */
import type { RE2 } from 're2-wasm';
import { TurnloopError } from '../../errors/turnloop-error.ts';
import { estimatePatternUnits, MAX_PATTERN_UNITS } from './pattern-size.ts';
import { currentEngine, discardEngine, isEngineAbort, withEngineQuiet, type Re2Engine } from './re2-engine.ts';
import { messageOf } from '../../errors/message-of.ts';

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

/** The engine's heap: what a compiled pattern (program and matching state) must fit in. */
export const ENGINE_HEAP_MB = 16;

/**
 * Why a compile failed, as the caller's error. A compile that exhausted the engine's fixed heap aborted the engine
 * (`re2-engine.ts`): it is dropped, so this call fails alone and the next compile gets a fresh engine.
 */
function refusal(source: string, error: unknown, engine: Re2Engine): UnsafePatternError {
  if (isEngineAbort(error)) {
    discardEngine(engine);
    return new UnsafePatternError(
      source,
      `the pattern compiles to more than the regular expression engine's ${ENGINE_HEAP_MB} MB: use fewer or smaller counted repetitions (such as {1000}) or smaller character classes (such as \\pL)`,
    );
  }
  const message = messageOf(error);
  return new UnsafePatternError(source, message.replace(/^Invalid regular expression: /, ''));
}

/** Compiles `source` with RE2, or throws `UnsafePatternError`. Flags are JavaScript's (`u` is implied). */
export function compileLinearRegExp(source: string, flags = ''): LinearRegExp {
  if (source.length > MAX_PATTERN_CHARS) {
    throw new UnsafePatternError(source, `the pattern has ${source.length} characters; at most ${MAX_PATTERN_CHARS} are accepted`);
  }
  if (!ALLOWED_FLAGS.test(flags)) throw new UnsafePatternError(source, `unsupported regular expression flags "${flags}"`);
  const units = estimatePatternUnits(source, flags);
  if (units > MAX_PATTERN_UNITS) {
    throw new UnsafePatternError(
      source,
      `the pattern would compile to about ${units} program units; at most ${MAX_PATTERN_UNITS} are accepted (use fewer or smaller counted repetitions such as {1000}, or smaller classes than \\pL)`,
    );
  }
  return compileOnEngine(source, flags);
}

/**
 * The compile itself, on the current engine, without the size estimate (exported for the test of the engine's
 * isolation: a compile that exhausts the heap must fail alone).
 */
export function compileOnEngine(source: string, flags: string): LinearRegExp {
  const base = [...new Set(`${flags.replace(/[gy]/g, '')}u`)].join('');
  const engine = currentEngine();
  let single: RE2;
  let global: RE2;
  try {
    single = withEngineQuiet(() => new engine.RE2(source, base));
  } catch (error) {
    throw refusal(source, error, engine);
  }
  try {
    global = withEngineQuiet(() => new engine.RE2(source, `${base}g`));
  } catch (error) {
    (single as unknown as { wrapper: { delete(): void } }).wrapper.delete();
    throw refusal(source, error, engine);
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
  let generation = currentEngine().generation;
  let compiled = compileLinearRegExp(source, flags);
  // Compiled again once its engine was replaced (after another compile aborted it), so the old heap can go.
  const live = (): LinearRegExp => {
    const engine = currentEngine();
    if (engine.generation === generation) return compiled;
    try {
      compiled = compileLinearRegExp(source, flags);
      generation = engine.generation;
    } catch {
      // Keep the old one: it compiled once, and a fresh engine refusing it now is no reason to stop redacting.
    }
    return compiled;
  };
  const kept: LinearRegExp = { source, flags, test: (text) => live().test(text), spans: (text) => live().spans(text), free: () => undefined };
  if (shared.size < MAX_SHARED) shared.set(key, kept);
  return kept;
}

/**
 * Ajv's regular expression engine (its `code.regExp` option) on this one, each pattern shared: a JSON Schema's
 * `pattern` then takes linear time, and one RE2 refuses makes the schema fail to compile. For the MCP tools' input
 * schemas (src/mcp/json-schema-input.ts) and `--json-schema` (src/agent-sdk/structured-output.ts).
 */
export const ajvLinearRegExp = Object.assign((pattern: string, flags: string) => sharedLinearRegExp(pattern, flags), { code: 'linearRegExp' });

/** Runs a compile, turning its refusal into the message (for `validateInput`). */
export function tryCompile<T>(compile: () => T): T | string {
  try {
    return compile();
  } catch (error) {
    return messageOf(error);
  }
}
