/**
 * The `Response` the model client's fetch answers with (node-http-fetch.ts): Node's own class would load undici
 * (see fetch-headers.ts). It has what a caller of fetch reads: `status`, `statusText`, `ok`, `url`, `headers`,
 * `body` (a web stream), `bodyUsed`, `text()`, `json()`, `arrayBuffer()`, `blob()` and `clone()`.
 *
 * Invariants (as Node's `Response`, compared in test/unit/model/fetch-response.test.ts): the body is read once;
 * reading it again, or cloning a response whose body is used or being read, is a `TypeError` with Node's message;
 * text is decoded as UTF-8 with a leading byte-order mark dropped; a response without a body reads as empty.
 */
import { Readable } from 'node:stream';
import { fetchTypeError } from '../errors/fetch-errors.ts';
import { FetchHeaders } from './fetch-headers.ts';

export interface FetchResponseInit {
  status: number;
  statusText: string;
  headers: FetchHeaders;
  url: string;
}

export class FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic';
  #body: ReadableStream<Uint8Array> | null;

  constructor(body: ReadableStream<Uint8Array> | null, init: FetchResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#body !== null && Readable.isDisturbed(this.#body as unknown as NodeJS.ReadableStream);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.#bytes()).buffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.#bytes()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): FetchResponse {
    if (this.bodyUsed || this.#body?.locked) throw fetchTypeError('Response.clone: Body has already been consumed.');
    let copy: ReadableStream<Uint8Array> | null = null;
    if (this.#body) [this.#body, copy] = this.#body.tee();
    return new FetchResponse(copy, { status: this.status, statusText: this.statusText, headers: new FetchHeaders(this.headers), url: this.url });
  }

  async #bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.bodyUsed || this.#body?.locked) throw fetchTypeError('Body is unusable: Body has already been read');
    if (this.#body === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.#body.getReader();
    let length = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      chunks.push(chunk.value);
      length += chunk.value.byteLength;
    }
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}
