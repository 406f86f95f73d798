/**
 * Sorts a failed model request into what the loop does about it (docs/loop.md §1, §4.5). Pure: reads only the error.
 *
 * | class             | when                                                                 | outcome                      |
 * |-------------------|----------------------------------------------------------------------|------------------------------|
 * | `prompt_too_long` | 400/413 whose text says the prompt is too long                       | API-error message, done      |
 * | `media_size`      | 400/413 whose text says an image/PDF is too large, too many pages... | API-error message, done      |
 * | `invalid_request` | any other 400                                                        | API-error message, done      |
 * | `overloaded`      | 529, or an `overloaded_error` (also as an SSE `error` event)         | overload retries / fallback  |
 * | `retryable`       | 5xx, 401, 408, 409, 429, network errors, broken or incomplete streams | backoff retries             |
 * | `other`           | anything else (403, 404, 413 without a known text...)                | API-error message at once    |
 *
 * API failures are never thrown at the loop: every class ends as an API-error message once the retries (if any)
 * are used up, and the loop decides from there (docs/loop.md §4.5 "API errors are messages"). Aborts are not classified
 * here: the caller checks its signal first.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

export type ErrorClass = {
  kind: 'prompt_too_long' | 'media_size' | 'invalid_request' | 'overloaded' | 'retryable' | 'other';
  /** The API's own message text (or the error's message for connection errors). */
  text: string;
  status?: number;
  type?: string;
  /**
   * For a request that got no HTTP answer at all: the lowest cause the network stack gave (`connect ECONNREFUSED
   * 127.0.0.1:9`, `getaddrinfo ENOTFOUND api.example.invalid`) and its code, so messages can say why.
   */
  connection?: { cause: string; code?: string };
};

/**
 * Network codes that no retry will change within seconds: nothing listens on that port, or the name does not
 * exist. (Timeouts, resets and temporary DNS failures are not here: those are worth the full backoff.)
 */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'BAD_PORT']);

/**
 * fetch refuses, without trying, the ports the Fetch standard blocks (9, 25, 6000...), saying only "bad port" with
 * no code: given a code and a sentence here so that the user learns why.
 */
const BAD_PORT_CODE = 'BAD_PORT';
const BAD_PORT_CAUSE = 'bad port: fetch refuses to connect to this port (it is on the Fetch standard\'s list of blocked ports)';

/** True when the failure is a refused connection or a host that does not resolve. */
export function isUnreachable(failure: ErrorClass): boolean {
  return failure.connection?.code !== undefined && UNREACHABLE_CODES.has(failure.connection.code);
}

/** Thrown by the adapter when a stream ended without `message_stop`. */
export class IncompleteStreamError extends TurnloopError {
  constructor() {
    super('INCOMPLETE_STREAM', 'the response stream ended before message_stop');
    this.name = 'IncompleteStreamError';
  }
}

const PROMPT_TOO_LONG = /prompt is too long|prompt too long|input is too long|too many (input )?tokens|exceeds? the (model's )?context (window|limit)/i;
const MEDIA_SIZE = [
  /image.{0,60}(exceeds|too large|too big|maximum (allowed )?size)/i,
  /(pdf|document).{0,60}(too large|too big|exceeds|too many pages|maximum of \d+ pages)/i,
  /too many (images|pages|pdf pages)/i,
  /maximum of \d+ (pdf )?pages/i,
  /image dimensions exceed/i,
];

export function classifyModelError(error: unknown): ErrorClass {
  const { status, type, text } = describe(error);
  const connection = status === undefined ? networkCause(error) : undefined;
  const tag = { ...(status === undefined ? {} : { status }), ...(type === undefined ? {} : { type }), ...(connection === undefined ? {} : { connection }) };
  if (status === 400 || status === 413) {
    if (PROMPT_TOO_LONG.test(text)) return { kind: 'prompt_too_long', text, ...tag };
    if (MEDIA_SIZE.some((pattern) => pattern.test(text))) return { kind: 'media_size', text, ...tag };
  }
  if (status === 400) return { kind: 'invalid_request', text, ...tag };
  if (status === 529 || type === 'overloaded_error') return { kind: 'overloaded', text, ...tag };
  // A 401 is retried like a 5xx, as the original and the real executable do (issue 39 item 5).
  if (status === undefined || status >= 500 || status === 401 || status === 408 || status === 409 || status === 429) {
    return { kind: 'retryable', text, ...tag };
  }
  return { kind: 'other', text, ...tag };
}

/** Status, API error type and the API's own message text (not the SDK's "529 {...}" wrapper) of any error. */
function describe(error: unknown): { status?: number; type?: string; text: string } {
  if (error === null || typeof error !== 'object') return { text: String(error) };
  const e = error as { status?: unknown; type?: unknown; apiMessage?: unknown; error?: unknown; message?: unknown };
  const body = (e.error ?? {}) as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown };
  const inner = body.error ?? body;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const type = typeof e.type === 'string' ? e.type : typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : undefined;
  const text =
    typeof e.apiMessage === 'string'
      ? e.apiMessage
      : typeof inner.message === 'string'
        ? inner.message
        : typeof e.message === 'string'
          ? e.message
          : String(error);
  return { ...(status === undefined ? {} : { status }), ...(type === undefined ? {} : { type }), text };
}

/**
 * The deepest `cause` of an error that carries a network code or message (fetch wraps the socket's error as
 * `TypeError: fetch failed`, the SDK wraps that as `Connection error.`), or undefined when there is none.
 */
function networkCause(error: unknown): { cause: string; code?: string } | undefined {
  let deepest: { cause: string; code?: string } | undefined;
  let deepestWithCode: { cause: string; code: string } | undefined;
  let current: unknown = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth += 1) {
    const e = current as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    const code = typeof e.code === 'string' ? e.code : undefined;
    // A dual-stack connect fails as an AggregateError with an empty message; its first error says where.
    const first = Array.isArray(e.errors) ? (e.errors[0] as { message?: unknown } | undefined) : undefined;
    const message = typeof e.message === 'string' && e.message !== '' ? e.message : typeof first?.message === 'string' ? first.message : code;
    if (message !== undefined) {
      deepest = { cause: message, ...(code === undefined ? {} : { code }) };
      if (code !== undefined) deepestWithCode = { cause: message, code };
    }
    current = e.cause;
  }
  if (deepestWithCode === undefined && deepest?.cause === 'bad port') return { cause: BAD_PORT_CAUSE, code: BAD_PORT_CODE };
  return deepestWithCode ?? deepest;
}
