/**
 * Who may talk to the inspector: a request must carry the URL's token, name this server in `Host` (so a page on
 * another site cannot reach it through DNS rebinding) and, when a browser sends an `Origin`, come from this
 * server's own origin. Nothing here sends CORS headers: other origins are simply refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_HEADER = 'x-turnloop-inspector-token';

/** 32 random bytes, URL-safe: unguessable, and fine in a query string. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The `Host` values this server answers to: the bound host and, on loopback, its usual names. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host]);
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') for (const name of ['127.0.0.1', 'localhost', '[::1]']) names.add(name);
  if (host.includes(':') && !host.startsWith('[')) names.add(`[${host}]`);
  return new Set([...names].map((name) => `${name}:${port}`));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: the header, else the `token` query parameter. */
export function tokenOf(request: IncomingMessage, url: URL): string | null {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string') return header;
  return url.searchParams.get('token');
}

/** Null when the request may proceed, else why it is refused (answered with 403). */
export function refusal(request: IncomingMessage, url: URL, token: string, hosts: Set<string>): string | null {
  const host = request.headers.host;
  if (host === undefined || !hosts.has(host.toLowerCase())) return `Host ${JSON.stringify(host ?? '')} is not this inspector`;
  const origin = request.headers.origin;
  if (origin !== undefined && ![...hosts].some((h) => origin.toLowerCase() === `http://${h}`)) return `Origin ${JSON.stringify(origin)} is not this inspector`;
  const given = tokenOf(request, url);
  if (given === null || !sameToken(given, token)) return 'missing or wrong token';
  return null;
}
