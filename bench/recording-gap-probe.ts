/**
 * What the recorder adds to a run beyond serialising, checking and hashing a turn's lines and writing them once:
 * the workload at N=10, H=10 (`ROUNDS` rounds, default 200, order rotated per round), median µs per turn, with
 * - `none`: no observer;
 * - `hash`: the "+ hash chain" row of `recording-cost.ts` (`hashChainObserver`: each event's text made and checked
 *   by the recorder's `loggedEventJsons`, its line prefix with the digest, one `lineHash` per commit group);
 * - `hash + write`: the same, and the group's text written with one `writeSync` where the recorder commits;
 * - `recorder`: `createSessionRecorder` to a file.
 * `recorder` minus `hash + write` is the recorder's own work (queueing steps, the commit check, the group encoder,
 * the writer); `hash + write` minus `hash` is what writing a turn's fresh bytes costs inside a run.
 *
 * Usage: `node --expose-gc --import tsx recording-gap-probe.ts`.
 */
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionRecorder } from '../dist/replay/session-recorder.js';
import type { StepObserver } from '../src/runtime/query-options.ts';
import { hashChainObserver } from './recording-cost.ts';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

const VARIANTS: Record<string, (path: string) => { onStep?: StepObserver; close(): void }> = {
  none: () => ({ close: () => undefined }),
  hash: () => hashChainObserver(null),
  'hash + write': (path) => hashChainObserver(openSync(path, 'a')),
  recorder: (path) => {
    const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
    return { onStep: recorder, close: () => recorder.close() };
  },
};

const names = Object.keys(VARIANTS);
const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
const rounds = Number(process.env.ROUNDS ?? 200);
const dir = mkdtempSync(join(tmpdir(), 'turnloop-recording-gap-'));
const loadAtStart = loadavg()[0].toFixed(1);
try {
  for (let round = -5; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + Math.max(round, 0)) % names.length];
      const path = join(dir, `run-${name}.jsonl`);
      const observer = VARIANTS[name](path);
      const probe = new TurnProbe();
      await runTurnloop({ turns: 10, history: 10 }, probe, observer.onStep);
      observer.close();
      rmSync(path, { force: true });
      if (round >= 0) samples[name].push(...probe.turnMicros());
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const none = median(samples.none);
for (const name of names) console.log(`${name.padEnd(14)} ${median(samples[name]).toFixed(1).padStart(6)} µs  ${(median(samples[name]) / none).toFixed(2)}×`);
console.log(`load average ${loadAtStart} → ${loadavg()[0].toFixed(1)}`);
