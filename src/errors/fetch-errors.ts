/**
 * The errors of the Fetch standard, as Node's `fetch` (undici) makes them, for the model client's `fetch` over
 * node:http (src/model/node-http-fetch.ts): the SDK and classify-error.ts read these shapes (a `TypeError` whose
 * `cause` is the socket's error), so a request sent either way fails the same way.
 */

/** What `fetch()` rejects with when the request could not be made or answered: the reason is its `cause`. */
export function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The cause of a refused request to a port the Fetch standard blocks (fetch says only this). */
export function badPort(): Error {
  return new Error('bad port');
}

/** What a response body's stream errors with when the connection ends before the body does. */
export function bodyTerminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

/** The cause of a body cut short without a socket error of its own (undici's words for it). */
export function connectionClosed(): Error {
  return new Error('other side closed');
}

/** The `TypeError` a Fetch standard class (Headers, Response) throws on a bad argument or a used body. */
export function fetchTypeError(message: string): TypeError {
  return new TypeError(message);
}
