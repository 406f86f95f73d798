/**
 * The control requests turnloop sends to the SDK program (`can_use_tool`, `hook_callback`, `mcp_message`) and the
 * `control_response`s that answer them, matched by `request_id`. Invariant: every pending request settles: by its
 * response, by the caller's abort signal, or (rejected) when stdin closes, so no tool call waits forever on a
 * program that went away.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';
import type { JsonObject } from './json-lines.ts';

export class ControlRequestError extends TurnloopError {
  constructor(subtype: string, message: string) {
    super('SDK_CONTROL_REQUEST', `${subtype}: ${message}`);
    this.name = 'ControlRequestError';
  }
}

interface Pending {
  subtype: string;
  resolve(response: JsonObject): void;
  reject(error: Error): void;
}

export class ControlChannel {
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private closedReason: string | null = null;

  constructor(private readonly write: (message: JsonObject) => void) {}

  /** Sends `request` and resolves with the program's `response` payload (its `success` answer). */
  request(request: JsonObject & { subtype: string }, signal?: AbortSignal): Promise<JsonObject> {
    if (this.closedReason !== null) return Promise.reject(new ControlRequestError(request.subtype, this.closedReason));
    if (signal?.aborted) return Promise.reject(new ControlRequestError(request.subtype, 'aborted'));
    this.next += 1;
    const requestId = `turnloop-${this.next}`;
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(requestId);
        this.write({ type: 'control_cancel_request', request_id: requestId });
        reject(new ControlRequestError(request.subtype, 'aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(requestId, {
        subtype: request.subtype,
        resolve: (value) => { settle(); resolve(value); },
        reject: (error) => { settle(); reject(error); },
      });
      this.write({ type: 'control_request', request_id: requestId, request });
    });
  }

  /** Handles a `control_response` line; false when it answers nothing we asked (the caller may report it). */
  handleResponse(message: JsonObject): boolean {
    const response = message.response as JsonObject | undefined;
    const requestId = typeof response?.request_id === 'string' ? response.request_id : undefined;
    const pending = requestId === undefined ? undefined : this.pending.get(requestId);
    if (!pending || requestId === undefined) return false;
    this.pending.delete(requestId);
    if (response?.subtype === 'error') pending.reject(new ControlRequestError(pending.subtype, String(response.error ?? 'the program answered with an error')));
    else pending.resolve((response?.response as JsonObject | undefined) ?? {});
    return true;
  }

  /** Rejects every pending request and every later one (stdin closed). */
  close(reason: string): void {
    this.closedReason = reason;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new ControlRequestError(pending.subtype, reason));
    }
  }
}
