/**
 * Our `Headers` and `Response` (src/model/fetch-headers.ts, fetch-response.ts: the headless bundle uses them so that
 * a run does not load undici) against Node's own: the same operations on both, the same results and errors.
 */
import { describe, expect, it } from 'vitest';
import { FormData as BundleFormData, Headers as BundleHeaders } from '../../../src/cli/bundle-globals.ts';
import { FetchHeaders } from '../../../src/model/fetch-headers.ts';
import { FetchResponse } from '../../../src/model/fetch-response.ts';

type AnyHeaders = Headers | FetchHeaders;

/** What an operation gives: its value, the entries after it, or its error. */
function outcome(headers: () => AnyHeaders, operation: (h: AnyHeaders) => unknown): unknown {
  try {
    const h = headers();
    const value = operation(h);
    return { value, entries: [...h], keys: [...h.keys()], values: [...h.values()], setCookie: h.getSetCookie() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const INITS: unknown[] = [
  undefined,
  { 'Content-Type': 'application/json', 'X-Api-Key': ' k ', b: 2, c: null },
  [['a', '1'], ['A', '2'], ['set-cookie', 'x=1'], ['Set-Cookie', 'y=2']],
  new Headers({ z: '1', a: '2' }),
  [['only one']],
  [['a', '1', 'extra']],
  'a string',
  42,
  null,
  { 'bad name': '1' },
  { a: 'bad\nvalue' },
  { a: '\u20ac' },
  { '\u00e9': '1' },
];

const OPERATIONS: Array<[string, (h: AnyHeaders) => unknown]> = [
  ['nothing', () => undefined],
  ['append twice', (h) => { h.append('X-Multi', 'one'); h.append('x-multi', ' two\t'); return h.get('X-MULTI'); }],
  ['set over append', (h) => { h.append('a', '1'); h.set('A', '3'); return [h.get('a'), h.has('A'), h.has('nope')]; }],
  ['delete', (h) => { h.append('gone', '1'); h.delete('GONE'); return [h.has('gone'), h.get('gone')]; }],
  ['set-cookie kept apart', (h) => { h.append('Set-Cookie', 'a=1'); h.append('set-cookie', 'b=2'); return h.get('set-cookie'); }],
  ['forEach', (h) => { const seen: unknown[] = []; h.append('k', 'v'); h.forEach(function (this: unknown, value, name) { seen.push([name, value, this]); }, 'this'); return seen; }],
  ['forEach without a function', (h) => h.forEach(5 as never)],
  ['invalid names', (h) => h.append('a b', '1')],
  ['invalid get', (h) => h.get('a:b')],
  ['invalid has', (h) => h.has('')],
  ['invalid delete', (h) => h.delete('a\u00e9')],
  ['invalid set value', (h) => h.set('a', 'x\0y')],
  ['value too wide', (h) => h.append('a', 'caf\u20ac')],
  ['whitespace only', (h) => { h.append('empty', ' \t\r\n '); return h.get('empty'); }],
  ['inner whitespace and latin-1', (h) => { h.append('inner', 'a \t b \u00e9'); return h.get('inner'); }],
  ['non-string values', (h) => { h.append('n', 1 as never); h.append('n', undefined as never); return h.get('n'); }],
  ['iteration order', (h) => { for (const name of ['b', 'C', 'a', 'set-cookie', 'a-b', 'A_B']) h.append(name, name); return [...h.entries()]; }],
];

describe('FetchHeaders, beside Node Headers', () => {
  for (const init of INITS) {
    it(`init ${JSON.stringify(init instanceof Headers ? [...init] : init) ?? 'undefined'}`, () => {
      for (const [name, operation] of OPERATIONS) {
        const ours = outcome(() => new FetchHeaders(init as never), operation);
        const node = outcome(() => new Headers(init as never), operation);
        expect(ours, name).toEqual(node);
      }
    });
  }

  it('takes our own headers as init, and says it is a Headers', () => {
    const ours = new FetchHeaders({ a: '1' });
    expect([...new FetchHeaders(ours)]).toEqual([['a', '1']]);
    expect([...new Headers(ours as unknown as Headers)]).toEqual([['a', '1']]);
    expect(Object.prototype.toString.call(ours)).toBe('[object Headers]');
  });
});

describe("the bundle's globals", () => {
  it('Headers is ours; FormData makes and recognises Node FormData, and a plain object is not one', () => {
    expect(BundleHeaders).toBe(FetchHeaders);
    const form = new BundleFormData() as FormData;
    expect(form).toBeInstanceOf(globalThis.FormData);
    expect(form instanceof BundleFormData).toBe(true);
    expect(new globalThis.FormData() instanceof BundleFormData).toBe(true);
    expect({ model: 'x' } instanceof BundleFormData).toBe(false);
    expect(({ [Symbol.toStringTag]: 'FormData' }) instanceof BundleFormData).toBe(false);
  });
});

/** A body of chunks as a web stream. */
function stream(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

async function responseOutcome(make: (body: ReadableStream<Uint8Array> | null) => Response | FetchResponse, steps: (r: Response | FetchResponse) => Promise<unknown>): Promise<unknown> {
  const response = make(stream('\ufeff{"a":', '"caf\u00e9"}'));
  try {
    return { value: await steps(response), bodyUsed: response.bodyUsed, ok: response.ok, status: response.status, statusText: response.statusText };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}`, bodyUsed: response.bodyUsed };
  }
}

describe('FetchResponse, beside Node Response', () => {
  const STEPS: Array<[string, (r: Response | FetchResponse) => Promise<unknown>]> = [
    ['text (the BOM dropped)', (r) => r.text()],
    ['json', (r) => r.json()],
    ['arrayBuffer', async (r) => [...new Uint8Array(await r.arrayBuffer())].length],
    ['blob', async (r) => { const blob = await r.blob(); return [blob.size, blob.type, await blob.text()]; }],
    ['read twice', async (r) => { await r.text(); return r.text(); }],
    ['clone, then both read', async (r) => { const copy = r.clone(); return [await copy.text(), await r.text(), copy.status, copy.headers.get('content-type')]; }],
    ['clone after reading', async (r) => { await r.text(); return r.clone(); }],
    ['clone while a reader holds it', async (r) => { r.body!.getReader(); return r.clone(); }],
    ['text while a reader holds it', async (r) => { r.body!.getReader(); return r.text(); }],
    ['bodyUsed before and after', async (r) => { const before = r.bodyUsed; await r.body!.getReader().read(); return [before, r.bodyUsed]; }],
  ];
  for (const [status, statusText] of [[200, 'OK'], [529, 'Overloaded'], [299, ''], [300, '']] as const) {
    it(`status ${status}`, async () => {
      for (const [name, steps] of STEPS) {
        const ours = await responseOutcome((body) => new FetchResponse(body, { status, statusText, headers: new FetchHeaders({ 'content-type': 'application/json' }), url: '' }), steps);
        const node = await responseOutcome((body) => new Response(body, { status, statusText, headers: { 'content-type': 'application/json' } }), steps);
        expect(ours, name).toEqual(node);
      }
    });
  }

  it('a response without a body reads as empty', async () => {
    const ours = new FetchResponse(null, { status: 204, statusText: '', headers: new FetchHeaders(), url: '' });
    const node = new Response(null, { status: 204 });
    expect([ours.body, ours.bodyUsed, await ours.text(), ours.bodyUsed]).toEqual([node.body, node.bodyUsed, await node.text(), node.bodyUsed]);
    expect(Object.prototype.toString.call(ours)).toBe('[object Response]');
  });
});
