/**
 * The Messages API endpoint a model caller talks to, checked before any request (docs/loop.md §4.5: a request
 * that cannot reach anything should fail in seconds, not after ten retries with backoff).
 *
 * Invariants:
 * - A base URL is accepted only as an absolute `http:` or `https:` URL with a host and no query or fragment; anything
 *   else (`localhost:9`, which WHATWG parses as the scheme `localhost:`, `api.example.com`, `ftp://…`) is refused
 *   with an `InvalidBaseUrlError` naming the value, where it came from and what was expected.
 * - `endpointOf` never throws: it is what retry lines and the final error message name as "where".
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

/** What the SDK talks to when no base URL is given anywhere. */
export const DEFAULT_API_BASE_URL = 'https://api.anthropic.com';

/** A base URL that cannot be an HTTP endpoint. `source` says where it came from (`--base-url`, an env var...). */
export class InvalidBaseUrlError extends TurnloopError {
  readonly value: string;
  readonly source: string;
  constructor(value: string, source: string, problem: string) {
    super(
      'INVALID_BASE_URL',
      `${source} is ${JSON.stringify(value)}: ${problem}; expected an absolute http:// or https:// URL with a host, such as https://api.anthropic.com or http://127.0.0.1:8080`,
    );
    this.value = value;
    this.source = source;
  }
}

/** The problem with `value` as a base URL, or undefined when it is usable. */
function baseUrlProblem(value: string): string | undefined {
  if (value.trim() === '') return 'it is empty';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return 'it has no scheme (http:// or https://)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `its scheme ${url.protocol.slice(0, -1)} is not http or https`;
  if (url.hostname === '') return 'it has no host';
  if (url.search !== '' || url.hash !== '') return 'it carries a query or fragment';
  return undefined;
}

/** Throws `InvalidBaseUrlError` unless `value` is usable as a Messages API base URL; returns it unchanged. */
export function checkBaseUrl(value: string, source: string): string {
  const problem = baseUrlProblem(value);
  if (problem !== undefined) throw new InvalidBaseUrlError(value, source, problem);
  return value;
}

/** The URL a Messages request goes to, for messages that say where a request failed. */
export function endpointOf(baseURL: string | undefined): string {
  return `${(baseURL ?? DEFAULT_API_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
}
