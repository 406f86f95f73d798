/**
 * Loads the headless mode's one-file bundle (`npm run build` writes it: scripts/build.mjs) with V8's code cache, so
 * a `turnloop -p` start-up neither walks hundreds of module files nor compiles the functions it runs.
 *
 * Invariants:
 * - The cache is data V8 checks itself (its version, flags and the source): a cache it rejects costs nothing but
 *   the compile it would have done anyway. The cache file's name carries the V8 version it was made with, so
 *   another Node does not even read it.
 * - Nothing is written beside the bundle at run time. Without a cache for this V8, Node's own compile cache
 *   (node:module `enableCompileCache`, Node 22+) is used where Node has it, and Node writes that one in its own
 *   cache directory ($NODE_COMPILE_CACHE, else node-compile-cache in the OS temp directory); else a plain `require()`.
 * - V8's WASM tiering budget is 10x its default (1,800,000) in a process that loads the bundle. Otherwise a one-turn
 *   run has V8 recompile the fetch HTTP parser's WASM (undici's llhttp) with its optimizing tier in the background,
 *   and the process waits for that compile before it exits (about 70 ms of CPU). Code that stays hot in a long
 *   session (RE2 over a big tree) still tiers up within its first pass. V8 counts its flags in the cache's check,
 *   so the build sets the same budget (through this function) before it makes the cache. (The model client no longer
 *   uses fetch, src/model/node-http-fetch.ts; the budget stays for the WASM a run still loads, RE2 and the shell
 *   parser, and has not been measured again without it.)
 * - V8's young generation grows 4x (its default: 2x) each time it grows, in a process that loads the bundle: most
 *   of what a headless start-up allocates lives as long as the process (modules, schemas, the loop machine), and a
 *   young generation at its first small size copies it in scavenge after scavenge (an SDK session of four turns: 4
 *   scavenges instead of 6). A heap flag on Node's command line would make V8 refuse the cache; this one is set at
 *   run time, before the cache is read, and the build sets it too before it makes the cache (V8 counts it in the
 *   cache's check like the budget). The young generation's largest size is V8's as before. Set on V8 11 only
 *   (`bundleV8Flags`), where it was measured.
 * - The bundle's text is read as Latin-1 when it is all ASCII (the build makes it so: \uXXXX escapes in its
 *   comments): the same string as UTF-8 decoding gives, made without decoding (3 MB: about 1 ms against 10).
 * - The bundle runs as CommonJS would (`exports`, `require`, `module`, `__filename`, `__dirname`); it has no
 *   `import()` (the build turns those of the packages left outside it into `require()`).
 */
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodeModule from 'node:module';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';

/** The headless mode's bundle, in dist/cli/ (next to the compiled headless-entry.js it is built from). */
export const HEADLESS_BUNDLE = 'headless-bundle.cjs';

/** What bin/ requires before the bundle, in dist/cli/: `isHeadlessInvocation` and this module, as one CommonJS file. */
export const HEADLESS_START = 'headless-start.cjs';

/** Ten times V8's default (see the invariants above). */
export const WASM_TIERING_BUDGET = 18_000_000;

/** Twice V8's default (see the invariants above). */
export const SEMI_SPACE_GROWTH_FACTOR = 4;

/**
 * The V8 flags a process that loads the bundle runs with; the cache is made and read under the same. The growth
 * factor only on V8 11 (Node 20), where it was measured: V8 prints an error on stderr for a flag it does not know.
 */
export function bundleV8Flags(v8Version = process.versions.v8): string[] {
  const growth = v8Version.startsWith('11.') ? [`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`] : [];
  return [`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`, ...growth];
}

/** The cache next to a bundle for the running V8 (`build.mjs` writes it under the same name). */
export function codeCachePath(bundleFile: string, v8Version = process.versions.v8): string {
  return `${bundleFile.replace(/\.cjs$/, '')}.v8-${v8Version.replace(/[^0-9A-Za-z.-]/g, '_')}.cache`;
}

export interface LoadedBundle<T> {
  exports: T;
  /** How it was loaded: with its cache (`cached`), with a cache V8 refused (`rejected`), compiled, or required. */
  via: 'cached' | 'rejected' | 'compiled' | 'required';
  /** The code cache of everything compiled so far (for `build.mjs` after a representative run); null if required. */
  createCache(): Buffer | null;
}

/**
 * Runs `bundleFile` (CommonJS); its exports. `run` uses the cache made for this V8 when there is one; `make-cache`
 * compiles without one, for `createCache()` after a representative run.
 */
export function loadBundle<T>(bundleFile: string, mode: 'run' | 'make-cache' = 'run'): LoadedBundle<T> {
  for (const flag of bundleV8Flags()) setFlagsFromString(flag);
  const requireHere = createRequire(bundleFile);
  const cacheFile = codeCachePath(bundleFile);
  const cachedData = mode === 'run' && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  if (mode === 'run' && cachedData === undefined) {
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
    return { exports: requireHere(bundleFile) as T, via: 'required', createCache: () => null };
  }
  const source = bundleText(readFileSync(bundleFile));
  // One line of wrapper, so the bundle's line numbers in a stack trace stay right.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireHere, module, bundleFile, dirname(bundleFile));
  return {
    exports: module.exports,
    via: cachedData === undefined ? 'compiled' : script.cachedDataRejected ? 'rejected' : 'cached',
    createCache: () => script.createCachedData(),
  };
}

/** The bundle's source: a one-byte string straight from the bytes when they are ASCII, else decoded as UTF-8. */
export function bundleText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
