/**
 * The Fetch standard's `Headers`, for the headless bundle and the model client's fetch (node-http-fetch.ts): Node's
 * own class comes with the whole of undici (its fetch, dispatcher and HTTP/2 client), about 15 ms of a fresh
 * process's start-up, which the Anthropic SDK pays on its first request only to build its request headers.
 *
 * Invariants (as Node's `Headers`, compared in test/unit/model/fetch-headers.test.ts): names are case-insensitive
 * tokens, values are trimmed of HTTP whitespace and may hold no NUL, CR or LF, both are byte strings; values of one
 * name combine with ", " except `set-cookie`, which keeps each; iteration is sorted by lowercase name; a bad argument
 * is a `TypeError` with Node's message.
 */
import { fetchTypeError } from '../errors/fetch-errors.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

export type FetchHeadersInit = Iterable<Iterable<unknown>> | Record<string, unknown>;

function byteString(input: unknown): string {
  const text = String(input);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 255) throw fetchTypeError(`Cannot convert argument to a ByteString because the character at index ${i} has a value of ${code} which is greater than 255.`);
  }
  return text;
}

function headerName(method: string, input: unknown): string {
  const name = byteString(input);
  if (!TOKEN.test(name)) throw fetchTypeError(`Headers.${method}: "${name}" is an invalid header name.`);
  return name.toLowerCase();
}

function headerValue(method: string, input: unknown): string {
  const value = byteString(input).replace(EDGE_WHITESPACE, '');
  if (FORBIDDEN_IN_VALUE.test(value)) throw fetchTypeError(`Headers.${method}: "${value}" is an invalid header value.`);
  return value;
}

export class FetchHeaders {
  /** Lowercase name to its values, in the order they were appended. */
  readonly #values = new Map<string, string[]>();

  constructor(init?: FetchHeadersInit | FetchHeaders) {
    if (init === undefined) return;
    if (init === null || (typeof init !== 'object' && typeof init !== 'function')) {
      throw fetchTypeError('Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.');
    }
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<Iterable<unknown>>) {
        const items = [...pair];
        if (items.length !== 2) throw fetchTypeError(`Headers constructor: expected name/value pair to be length 2, found ${items.length}.`);
        this.append(items[0], items[1]);
      }
      return;
    }
    for (const key of Object.keys(init)) this.append(key, (init as Record<string, unknown>)[key]);
  }

  append(name: unknown, value: unknown): void {
    const key = headerName('append', name);
    const text = headerValue('append', value);
    const values = this.#values.get(key);
    if (values) values.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: unknown, value: unknown): void {
    const key = headerName('set', name);
    this.#values.set(key, [headerValue('set', value)]);
  }

  get(name: unknown): string | null {
    return this.#values.get(headerName('get', name))?.join(', ') ?? null;
  }

  has(name: unknown): boolean {
    return this.#values.has(headerName('has', name));
  }

  delete(name: unknown): void {
    this.#values.delete(headerName('delete', name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, name: string, headers: FetchHeaders) => void, thisArg?: unknown): void {
    if (typeof callback !== 'function') throw fetchTypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.");
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name)!;
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}
