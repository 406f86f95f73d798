/**
 * What the headless bundle's code sees as the globals `Headers` and `FormData` (scripts/build.mjs injects this
 * module: esbuild binds those free names here, in the bundle only). Node defines both lazily, and the first touch of
 * either loads the whole of undici (about 15 ms of a start-up); the Anthropic SDK touches them on every request
 * (`new Headers()` for its request headers, `body instanceof FormData` for its body) though a run sends no form.
 *
 * - `Headers` is the Fetch standard's class of our own (src/model/fetch-headers.ts).
 * - `FormData` is Node's: `new FormData()` makes one, and `instanceof` asks Node's class only about a value that
 *   says it is a FormData, so a plain object never loads undici.
 */
export { FetchHeaders as Headers } from '../model/fetch-headers.ts';

export class FormData {
  constructor(...args: unknown[]) {
    return new (globalThis.FormData as unknown as new (...init: unknown[]) => object)(...args);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'FormData' && value instanceof globalThis.FormData;
  }
}
