/**
 * Secret redaction for everything written to a session log (and, through `redactText`, CLI output).
 *
 * Invariants:
 * - Every string of the value is visited, so a secret cannot hide in a nested message, tool input or error text.
 *   Opaque model data (thinking `signature`s, base64 media) is left as it is: masking it would break a resume.
 * - Always redacted (see `secret-patterns.ts`): Anthropic keys of every prefix, `Authorization`/`x-api-key`
 *   values and Bearer tokens, AWS access keys and secrets, GitHub/GitLab/Slack tokens, Google API keys, PEM
 *   private keys, JWTs, and values of variables whose names contain KEY, TOKEN, SECRET or PASSWORD (as `NAME=…`
 *   text, as object members named like that, and, given `secretValues`, wherever the value itself appears).
 *   Extra patterns come from config; they run on RE2 (linear time), like patterns read back from a log header.
 * - A secret is MASKED, not cut: the replacement has the same length, and the same length once JSON-escaped
 *   (characters JSON escapes are kept, as are escape sequences after a backslash, so masked JSON text is still
 *   JSON; every other code unit becomes one mask character). Token estimates
 *   (characters / 4, of texts and of tool inputs' JSON) are therefore unchanged, so a redacted log refolds the very
 *   decisions of the live run (autocompact, budgets, blocking limit) and replays without divergence.
 * - Masking is idempotent (a masked text matches no pattern in a new way), so redacting what replay derived from
 *   redacted events changes nothing: live hashes equal replayed hashes.
 */
import { sharedLinearRegExp, type LinearRegExp } from '../tools/builtin/linear-regexp.ts';
import { BUILT_IN_SECRET_PATTERNS, isSecretMemberName, MAY_HOLD_SECRET, MAY_HOLD_SECRET_CASED } from './secret-patterns.ts';

/** The start of every mask long enough to hold it. */
export const REDACTED = '[REDACTED]';
const MASK_FILL = '*';

export interface RedactOptions {
  /** Extra patterns (RegExp, source text or source and flags; run with RE2); every match in any string is masked. */
  patterns?: Array<RegExp | string | { source: string; flags: string }>;
  /** Literal secret values to mask wherever they appear (e.g. `secretValuesFromEnv(process.env)`). Never logged. */
  secretValues?: readonly string[];
  /** Turn off the built-in patterns (tests only; extra patterns still apply). */
  builtIns?: boolean;
}

/** Whether each variable name seen so far is secret-named (a pure test of the name, so it is asked once per name). */
const secretNames = new Map<string, boolean>();

/** Values of environment variables whose names contain KEY, TOKEN, SECRET or PASSWORD (8 characters or more). */
export function secretValuesFromEnv(env: Record<string, string | undefined>): string[] {
  // Every call reads the names and the secret-named values afresh (the environment may change), but reads no
  // other value: each read of `process.env` is a call into the runtime, and most variables are not secret-named.
  const values: string[] = [];
  for (const name of Object.keys(env)) {
    let secret = secretNames.get(name);
    if (secret === undefined) {
      secret = isSecretMemberName(name.toUpperCase());
      secretNames.set(name, secret);
    }
    if (!secret) continue;
    const value = env[name];
    if (typeof value === 'string' && value.length >= 8) values.push(value);
  }
  return values;
}

/** True for a UTF-16 code unit JSON.stringify writes as itself (not escaped). */
function jsonPlain(code: number): boolean {
  return code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff);
}

/** `text` with the code units of [start, end) masked (same length, same JSON-escaped length). */
function maskSpan(text: string, start: number, end: number): string {
  let maskable = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) i += (text[i + 1] === 'u' ? 6 : 2) - 1;
    else if (jsonPlain(code)) maskable++;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      maskable += 2;
      i++;
    }
  }
  const template = maskable >= REDACTED.length ? REDACTED : '';
  let out = '';
  let filled = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (!jsonPlain(code) && !pair) {
      // A backslash keeps its escape (`\n`, `\u00e9`) whole, so JSON text stays JSON after masking.
      const keep = code === 0x5c ? (text[i + 1] === 'u' ? 6 : 2) : 1;
      out += text.slice(i, Math.min(i + keep, end));
      i += Math.min(keep, end - i) - 1;
      continue;
    }
    for (let k = 0; k < (pair ? 2 : 1); k++) out += template[filled++] ?? MASK_FILL;
    if (pair) i++;
  }
  return text.slice(0, start) + out + text.slice(end);
}

type Span = [number, number];

function builtInSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const pattern of BUILT_IN_SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const secret = match.indices?.groups?.secret;
      const [start, end] = secret ?? [match.index, match.index + match[0].length];
      if (end > start) spans.push([start, end]);
    }
  }
  return spans;
}

function linearSpans(text: string, pattern: LinearRegExp): Span[] {
  return pattern.spans(text).filter(([start, end]) => end > start);
}

function literalSpans(text: string, value: string): Span[] {
  const spans: Span[] = [];
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) spans.push([at, at + value.length]);
  return spans;
}

/** Masks every span (overlapping ones merged). */
function maskSpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = text;
  let [start, end] = spans[0];
  for (const [s, e] of spans.slice(1)) {
    if (s <= end) end = Math.max(end, e);
    else {
      out = maskSpan(out, start, end);
      [start, end] = [s, e];
    }
  }
  return maskSpan(out, start, end);
}

/** Whether `text` contains none of `forms` (a loop, not `every` with a new closure: the recorder asks per turn). */
function holdsNone(text: string, forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i])) return false;
  return true;
}

export interface Redactor {
  /** A deep copy of a JSON value with every secret masked (the value itself when it has none). */
  <T>(value: T): T;
  /** `JSON.stringify(redact(value))`, serialising once when nothing needs redacting (the common case). */
  toJson(value: unknown): string;
  /** True when a value whose JSON text is `json` certainly holds nothing to redact; false means "maybe". */
  isCleanJson(json: string): boolean;
  /** One text with every secret masked. */
  text(text: string): string;
}

function toLinear(pattern: RegExp | string | { source: string; flags: string }): LinearRegExp {
  return typeof pattern === 'string' ? sharedLinearRegExp(pattern) : sharedLinearRegExp(pattern.source, pattern.flags);
}

/** Builds a redactor. Throws `UnsafePatternError` for an extra pattern RE2 cannot run. */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const builtIns = options.builtIns !== false;
  const extra = (options.patterns ?? []).map(toLinear);
  const values = [...new Set(options.secretValues ?? [])].filter((v) => v.length > 0);
  const escapedValues = values.map((v) => JSON.stringify(v).slice(1, -1));

  const redactString = (text: string): string => {
    if (extra.length === 0 && isCleanText(text)) return text;
    const spans = builtIns ? builtInSpans(text) : [];
    for (const pattern of extra) spans.push(...linearSpans(text, pattern));
    for (const value of values) spans.push(...literalSpans(text, value));
    return maskSpans(text, spans);
  };
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(visit);
    const record = value as Record<string, unknown>;
    const opaque = record.type === 'base64';
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) {
      if (typeof item === 'string' && (key === 'signature' || (opaque && key === 'data'))) copy[key] = item;
      else if (typeof item === 'string' && builtIns && isSecretMemberName(key)) copy[key] = maskSpan(item, 0, item.length);
      else copy[key] = visit(item);
    }
    return copy;
  };
  // Fast path: every built-in pattern and secret member name contains one of the words of `MAY_HOLD_SECRET*`, none
  // of which JSON escapes, so a value whose JSON text has none of them (nor a secret value) has nothing to redact
  // and is returned as it is (no copy). Extra patterns are arbitrary, so with them every value is visited. The JSON
  // text of a member is a substring of its parent's, so a clean parent text vouches for every member.
  const quickCheck = extra.length === 0;
  const isCleanText = (text: string, forms = values) =>
    (!builtIns || (!MAY_HOLD_SECRET.test(text) && !MAY_HOLD_SECRET_CASED.test(text))) && (forms.length === 0 || holdsNone(text, forms));
  const isCleanJson = (json: string) => quickCheck && isCleanText(json, escapedValues);
  const redact = <T>(value: T): T => (quickCheck && isCleanJson(JSON.stringify(value) ?? '') ? value : (visit(value) as T));
  const toJson = (value: unknown): string => {
    if (quickCheck) {
      const json = JSON.stringify(value) ?? '';
      if (isCleanJson(json)) return json;
    }
    return JSON.stringify(visit(value)) ?? '';
  };
  return Object.assign(redact, { toJson, isCleanJson, text: redactString });
}

/** Masks the built-in secrets (and `secretValues`) of one text: for CLI output and error messages. */
export function redactText(text: string, secretValues: readonly string[] = []): string {
  return createRedactor({ secretValues }).text(text);
}
