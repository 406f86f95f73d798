/**
 * Sorts a failed model request into what the loop does about it (docs/loop.md §1, §4.5). Pure: reads only the error.
 *
 * | class             | when                                                                 | outcome                      |
 * |-------------------|----------------------------------------------------------------------|------------------------------|
 * | `prompt_too_long` | 400/413 whose text says the prompt is too long                       | API-error message, done      |
 * | `media_size`      | 400/413 whose text says an image/PDF is too large, too many pages... | API-error message, done      |
 * | `invalid_request` | any other 400                                                        | API-error message, done      |
 * | `overloaded`      | 529, or an `overloaded_error` (also as an SSE `error` event)         | overload retries / fallback  |
 * | `retryable`       | 5xx, 408, 409, 429, network errors, broken or incomplete streams     | backoff retries              |
 * | `other`           | anything else (401, 403, 404, 413 without a known text...)           | API-error message at once    |
 *
 * API failures are never thrown at the loop: every class ends as an API-error message once the retries (if any)
 * are used up, and the loop decides from there (docs/loop.md §4.5 "API errors are messages"). Aborts are not classified
 * here: the caller checks its signal first.
 */
import { TurnloopError } from '../../errors/turnloop-error.ts';

export type ErrorClass = {
  kind: 'prompt_too_long' | 'media_size' | 'invalid_request' | 'overloaded' | 'retryable' | 'other';
  /** The API's own message text (or the error's message for connection errors). */
  text: string;
  status?: number;
  type?: string;
};

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
  const tag = { ...(status === undefined ? {} : { status }), ...(type === undefined ? {} : { type }) };
  if (status === 400 || status === 413) {
    if (PROMPT_TOO_LONG.test(text)) return { kind: 'prompt_too_long', text, ...tag };
    if (MEDIA_SIZE.some((pattern) => pattern.test(text))) return { kind: 'media_size', text, ...tag };
  }
  if (status === 400) return { kind: 'invalid_request', text, ...tag };
  if (status === 529 || type === 'overloaded_error') return { kind: 'overloaded', text, ...tag };
  if (status === undefined || status >= 500 || status === 408 || status === 409 || status === 429) {
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
