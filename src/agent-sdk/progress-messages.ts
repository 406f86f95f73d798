/**
 * The system messages claude sends about a turn in progress, in the SDK's shapes (`sdk.d.ts`, claude 2.1.334 probed
 * offline, docs/agent-sdk-conformance.md): `api_retry` before each wait for a retried request,
 * `thinking_tokens` on each streamed piece of thinking (an estimate, four characters a token, counted per request;
 * a block's signature, which stands for the thinking the API did not show, can raise it: `ThinkingEstimate`),
 * `permission_denied` before the error tool_result of a call denied without asking. Pure.
 */
import type { ModelRetryNotice } from '../model/anthropic-model-caller.ts';
import type { JsonObject } from './json-lines.ts';
import type { UnaskedDenial } from './permission-modes.ts';

export interface Frame {
  sessionId: string;
  uuid: string;
}

/** The SDK's `SDKAssistantMessageError` for a failed request's status and error type (absent: no HTTP answer). */
export function sdkErrorOfStatus(status: number | undefined, errorType?: string): string {
  if (status === 401 || errorType === 'authentication_error') return 'authentication_failed';
  if (status === 429 || errorType === 'rate_limit_error') return 'rate_limit';
  if (status === 529 || errorType === 'overloaded_error') return 'overloaded';
  if (status !== undefined && status >= 500) return 'server_error';
  return 'unknown';
}

export function apiRetryMessage(notice: ModelRetryNotice, frame: Frame): JsonObject {
  const status = notice.error.status;
  return {
    type: 'system',
    subtype: 'api_retry',
    attempt: notice.attempt,
    max_retries: notice.maxRetries,
    retry_delay_ms: notice.delayMs,
    error_status: status ?? null,
    error: sdkErrorOfStatus(status),
    session_id: frame.sessionId,
    uuid: frame.uuid,
  };
}

export function permissionDeniedMessage(denial: UnaskedDenial, frame: Frame): JsonObject {
  return { type: 'system', subtype: 'permission_denied', ...denial, uuid: frame.uuid, session_id: frame.sessionId };
}

/** Characters per token of claude's estimate of the thinking streamed so far. */
const CHARS_PER_TOKEN = 4;

/**
 * Counts the thinking characters of one request's stream; `add` gives the next `thinking_tokens` message, if any.
 * As claude 2.1.334 estimates (probed offline on one-block replies): the characters streamed so far, four a token,
 * rounded up; at a block's signature, at least the signature's decoded bytes, four a token, rounded up (a signature
 * of 400 base64 characters: 75), and a message only when that raises the estimate.
 */
export class ThinkingEstimate {
  private chars = 0;
  private tokens = 0;

  /** A new request: the estimate starts again at 0. */
  reset(): void {
    this.chars = 0;
    this.tokens = 0;
  }

  /** The message for a stream event, when it is a piece of thinking (or a signature that raises the estimate). */
  add(event: unknown, frame: Frame): JsonObject | null {
    const delta = thinkingDelta(event);
    if (delta === undefined) return null;
    let estimate: number;
    if (delta.kind === 'thinking') {
      this.chars += delta.text.length;
      estimate = Math.ceil(this.chars / CHARS_PER_TOKEN);
    } else {
      estimate = Math.max(this.tokens, Math.ceil(Buffer.from(delta.text, 'base64').length / CHARS_PER_TOKEN));
      if (estimate === this.tokens) return null;
    }
    const message = { type: 'system', subtype: 'thinking_tokens', estimated_tokens: estimate, estimated_tokens_delta: estimate - this.tokens, session_id: frame.sessionId, uuid: frame.uuid };
    this.tokens = estimate;
    return message;
  }
}

function thinkingDelta(event: unknown): { kind: 'thinking' | 'signature'; text: string } | undefined {
  const e = event as { type?: unknown; delta?: { type?: unknown; thinking?: unknown; signature?: unknown } } | null;
  if (e?.type !== 'content_block_delta') return undefined;
  if (e.delta?.type === 'thinking_delta' && typeof e.delta.thinking === 'string') return { kind: 'thinking', text: e.delta.thinking };
  if (e.delta?.type === 'signature_delta' && typeof e.delta.signature === 'string') return { kind: 'signature', text: e.delta.signature };
  return undefined;
}
