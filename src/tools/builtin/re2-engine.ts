/**
 * The RE2 engine (`re2-wasm`), isolated per instance. Its WASM heap is fixed at 16 MB, and a compile that needs
 * more (a 10-character pattern such as `\pL{1000}` does) aborts inside the engine, which never gives that memory
 * back: after a dozen such compiles every later one in the process failed with "Cannot enlarge memory arrays".
 *
 * Invariants:
 * - An engine that aborted is dropped: the next compile loads a fresh instance (its own module and heap, ~50 ms),
 *   and the old one is garbage once nothing compiled on it is still in use.
 * - `generation` grows with each instance, so a long-lived expression can tell that its engine was replaced and
 *   compile itself again on the new one (`linear-regexp.ts`), instead of keeping a broken heap alive.
 * - What the engine prints while it aborts goes nowhere: the refusal is the caller's error result, not noise on
 *   the user's terminal.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { messageOf } from '../../errors/message-of.ts';

type Re2Class = typeof import('re2-wasm').RE2;

export interface Re2Engine {
  readonly RE2: Re2Class;
  readonly generation: number;
}

const requireHere = createRequire(import.meta.url);
let current: Re2Engine | null = null;
let generations = 0;

/** While true, what an engine prints is dropped. */
let quiet = false;

/**
 * A new instance: the package's two files are evaluated again, so the WASM module gets a heap of its own. The
 * module binds `console.log` and `console.warn` as it loads; it gets wrappers that stay silent while `quiet`.
 */
function loadEngine(): Re2Engine {
  const entry = requireHere.resolve('re2-wasm');
  const glue = join(dirname(entry), '..', 'wasm', 're2.js');
  delete requireHere.cache[entry];
  delete requireHere.cache[glue];
  const { log, warn } = console;
  console.log = (...args: unknown[]) => void (quiet || log.apply(console, args));
  console.warn = (...args: unknown[]) => void (quiet || warn.apply(console, args));
  try {
    const { RE2 } = requireHere(entry) as typeof import('re2-wasm');
    generations += 1;
    return { RE2, generation: generations };
  } finally {
    console.log = log;
    console.warn = warn;
  }
}

/** The engine compiles go to now. */
export function currentEngine(): Re2Engine {
  current ??= loadEngine();
  return current;
}

/** Whether an error thrown by the engine is its abort (the heap is exhausted; the instance must not be reused). */
export function isEngineAbort(error: unknown): boolean {
  const message = messageOf(error);
  return /abort\(|Cannot enlarge memory|out of memory/i.test(message);
}

/** Drops `engine` after it aborted: the next `currentEngine()` is a fresh instance. */
export function discardEngine(engine: Re2Engine): void {
  if (current === engine) current = null;
}

/** Runs `work` (a compile) with the engine's own printing silenced (emscripten prints its abort). */
export function withEngineQuiet<T>(work: () => T): T {
  quiet = true;
  try {
    return work();
  } finally {
    quiet = false;
  }
}
