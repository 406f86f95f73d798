/**
 * Secret redaction for everything written to a session log.
 *
 * Invariants:
 * - Every string of the value is visited (keys included only when they name a secret header), so a secret cannot
 *   hide in a nested message, tool input or error text.
 * - Always redacted: Anthropic API keys (`sk-ant-…`), values of `authorization` / `x-api-key` members (any case),
 *   and `authorization: …` / `x-api-key: …` / `Bearer …` fragments inside strings. Extra patterns come from config.
 * - Redaction is a pure function of its input and the patterns; the recorder and the replayer apply the same one,
 *   so a redacted log replays with the same hash chain (the logged, redacted events are what replay folds).
 */

export const REDACTED = '[REDACTED]';

export interface RedactOptions {
  /** Extra patterns (RegExp or source text); every match in any string becomes `[REDACTED]`. */
  patterns?: Array<RegExp | string>;
  /** Turn off the built-in patterns (tests only; extra patterns still apply). */
  builtIns?: boolean;
}

const SECRET_KEYS = new Set(['authorization', 'x-api-key', 'api-key', 'apikey', 'api_key', 'proxy-authorization']);

const BUILT_IN_PATTERNS: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /\b((?:proxy-)?authorization|x-api-key)(["']?\s*[:=]\s*["']?)(?:Bearer\s+|Basic\s+)?[^\s"',;}]+/gi,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g,
];

function globalize(pattern: RegExp | string): RegExp {
  if (typeof pattern === 'string') return new RegExp(pattern, 'g');
  return pattern.flags.includes('g') ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

export interface Redactor {
  /** A deep copy of a JSON value with every secret replaced (the value itself when it has none). */
  <T>(value: T): T;
  /** `JSON.stringify(redact(value))`, serialising once when nothing needs redacting (the common case). */
  toJson(value: unknown): string;
  /** True when a value whose JSON text is `json` certainly holds nothing to redact; false means "maybe". */
  isCleanJson(json: string): boolean;
}

/** Builds a redactor: a deep copy of a JSON value with every secret replaced (the value itself when it has none). */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const patterns = [...(options.builtIns === false ? [] : BUILT_IN_PATTERNS), ...(options.patterns ?? []).map(globalize)];
  const redactString = (text: string): string => {
    let out = text;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, (match: string, name?: string, sep?: string) =>
        typeof name === 'string' && typeof sep === 'string' && /authorization|x-api-key/i.test(name) ? `${name}${sep}${REDACTED}` : REDACTED,
      );
    }
    return out;
  };
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(visit);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = SECRET_KEYS.has(key.toLowerCase()) && typeof item === 'string' ? REDACTED : visit(item);
    }
    return copy;
  };
  // Fast path: every built-in pattern and secret key contains one of these words, none of which JSON escapes, so
  // a value whose JSON text has none of them has nothing to redact and is returned as it is (no copy). Extra
  // patterns are arbitrary regexes (they may span characters JSON escapes), so with them every value is visited.
  // The JSON text of a member is a substring of its parent's, so a clean parent text vouches for every member.
  const mayHoldBuiltInSecret = /sk-ant-|authorization|x-api-key|bearer|api[-_]?key/i;
  const quickCheck = (options.patterns ?? []).length === 0;
  const isCleanJson = (json: string) => quickCheck && (options.builtIns === false || !mayHoldBuiltInSecret.test(json));
  const redact = <T>(value: T): T => (quickCheck && isCleanJson(JSON.stringify(value) ?? '') ? value : (visit(value) as T));
  const toJson = (value: unknown): string => {
    if (quickCheck) {
      const json = JSON.stringify(value) ?? '';
      if (isCleanJson(json)) return json;
    }
    return JSON.stringify(visit(value)) ?? '';
  };
  return Object.assign(redact, { toJson, isCleanJson });
}
