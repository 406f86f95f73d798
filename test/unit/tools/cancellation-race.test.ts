/**
 * `CancellationRace` (round 13) stands for `Promise.race([work, cancelled])`, where `cancelled` is a promise the
 * call's abort resolves, with the same microtask hops: whatever microtask the work settles at (or fails at), and
 * whatever microtask the abort comes at (before the race starts included), the same winner at the same hop.
 */
import { describe, expect, it } from 'vitest';
import { CancellationRace } from '../../../src/tools/cancellation-race.ts';

type Outcome = string;

/** Settles `work` after `workHops` microtasks (rejects when `fails`), aborts after `abortHops` (-1: before the race starts). */
async function runRace(kind: 'promise.race' | 'cancellation-race', workHops: number, abortHops: number, fails: boolean): Promise<Outcome> {
  let hop = 0;
  let stopped = false;
  const ticker = async () => {
    while (!stopped && hop < 50) {
      await Promise.resolve();
      hop += 1;
    }
  };
  const listeners: Array<() => void> = [];
  const abort = () => listeners.splice(0).forEach((listener) => listener());
  const work = (async () => {
    for (let i = 0; i < workHops; i++) await Promise.resolve();
    if (fails) throw new Error('failed');
    return 'work';
  })();
  let winner: Promise<string>;
  if (kind === 'promise.race') {
    const cancelled = new Promise<'cancelled'>((resolve) => listeners.push(() => resolve('cancelled')));
    if (abortHops === -1) abort();
    winner = Promise.race([work, cancelled]);
  } else {
    const race = new CancellationRace<string>();
    listeners.push(race.cancel);
    if (abortHops === -1) abort();
    winner = race.firstOf(work);
  }
  void ticker();
  if (abortHops >= 0) void (async () => {
    for (let i = 0; i < abortHops; i++) await Promise.resolve();
    abort();
  })();
  try {
    const value = await winner;
    return `${value} at hop ${hop}`;
  } catch (error) {
    return `${(error as Error).message} at hop ${hop}`;
  } finally {
    stopped = true;
  }
}

describe('CancellationRace', () => {
  it("gives Promise.race's winner at Promise.race's hop, for every timing of the work and of the abort", async () => {
    let cases = 0;
    for (const fails of [false, true]) {
      for (let workHops = 0; workHops <= 6; workHops++) {
        for (let abortHops = -1; abortHops <= 8; abortHops++) {
          const expected = await runRace('promise.race', workHops, abortHops, fails);
          const actual = await runRace('cancellation-race', workHops, abortHops, fails);
          expect(actual, `work after ${workHops} hops${fails ? ' (failing)' : ''}, abort after ${abortHops}`).toBe(expected);
          cases += 1;
        }
      }
    }
    expect(cases).toBe(140);
  });
});
