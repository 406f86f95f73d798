/**
 * Production defaults for time and ids. The only place in the engine that reads the wall clock or makes random ids.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../data/deps.ts';

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export const randomIds: IdGenerator = () => randomUUID();

/** A clock for tests and simulations: `sleep` returns at once and advances virtual time. */
export function virtualClock(start = 0): Clock & { elapsed(): number; sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    elapsed: () => now - start,
    sleeps,
  };
}

/** Deterministic ids: `<prefix>-1`, `<prefix>-2`, ... */
export function counterIds(prefix = 'id'): IdGenerator {
  let n = 0;
  return () => `${prefix}-${++n}`;
}
