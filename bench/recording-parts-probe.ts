/**
 * What each part of the recorder's work costs per turn, alone (warm, no loop around it): the 7 steps of one turn of
 * the bench workload (N=10, H=10; recorded once, then fed again with fresh indexes) through
 * - `texts + check`: `loggedEventJsons` (the events' texts from the templates or `JSON.stringify`, and the check
 *   for secrets of what they hold);
 * - `+ lines`: and each line's text up to its hash member (`eventLinePrefix`: index, event text, digest `at`),
 *   joined as the recorder joins a group;
 * - `+ encode and hash`: and the group encoder (UTF-8 into its buffer, SHA-256, the hash member);
 * - `+ write`: and one `writeSync` of the group's bytes to a file (what the recorder does before each model call);
 * - `recorder`: `createSessionRecorder` to a file fed the same steps (all of the above, and per step the queue and
 *   the check for a commit, and the writer's bookkeeping).
 * CPU µs per turn (user + system), medians of `ROUNDS` rounds of 4,000 turns each, the variants in rotated order;
 * the load average is printed at the start and the end.
 *
 * Usage (in bench/): `node --import tsx recording-parts-probe.ts` (`ROUNDS`, default 15).
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loggedEventJsons } from '../dist/replay/event-json.js';
import { createGroupEncoder } from '../dist/replay/group-encoder.js';
import { createRedactor, secretValuesFromEnv } from '../dist/replay/redact.js';
import { createSessionRecorder, eventLinePrefix } from '../dist/replay/session-recorder.js';
import { foldSessionLog } from '../dist/replay/replay.js';
import { parseSessionLogText } from '../dist/replay/parse-session-log.js';
import type { LoopEvent } from '../src/data/events.ts';
import type { Effect } from '../src/data/effects.ts';
import type { LoopState } from '../src/data/state.ts';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

interface Step { index: number; event: LoopEvent; state: LoopState; effects: readonly Effect[] }

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const TURNS = 4_000;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
const dir = mkdtempSync(join(tmpdir(), 'turnloop-recording-parts-'));
const secretValues = secretValuesFromEnv(process.env);
const redact = createRedactor({ secretValues });
const checksCommon = secretValues.length > 0;

async function oneTurn(): Promise<{ header: unknown; turn: Step[] }> {
  const path = join(dir, 'source.jsonl');
  const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
  await runTurnloop({ turns: 10, history: 10 }, new TurnProbe(), recorder);
  recorder.close();
  const steps = [...foldSessionLog(parseSessionLogText(readFileSync(path, 'utf8')))] as Step[];
  const calls = steps.flatMap((step, i) => (i > 0 && step.effects.some((effect) => effect.type === 'call_model') ? [i] : []));
  return { header: steps[0], turn: steps.slice(calls[2] + 1, calls[3] + 1) };
}

const { header, turn } = await oneTurn();
let sink = 0;

/** One variant: a function run once per turn, given the turn's steps with fresh indexes. */
type Part = { name: string; open(): { turn(steps: Step[]): void; close(): void } };
const group = (steps: Step[]) => {
  const { jsons } = loggedEventJsons(steps, redact, checksCommon);
  let body = '';
  for (let i = 0; i < jsons.length; i++) body += i === 0 ? eventLinePrefix(steps[i].index, jsons[i], steps[i].state) : `}\n${eventLinePrefix(steps[i].index, jsons[i], steps[i].state)}`;
  return body;
};
const parts: Part[] = [
  { name: 'texts + check', open: () => ({ turn: (steps) => void (sink += loggedEventJsons(steps, redact, checksCommon).jsons.length), close() {} }) },
  { name: '+ lines', open: () => ({ turn: (steps) => void (sink += group(steps).length), close() {} }) },
  {
    name: '+ encode and hash',
    open: () => {
      const encoder = createGroupEncoder();
      let previous = '0123456789abcdef';
      return { turn: (steps) => void (previous = encoder.encode(previous, group(steps)).hash), close() {} };
    },
  },
  {
    name: '+ write',
    open: () => {
      const encoder = createGroupEncoder();
      const path = join(dir, 'write.jsonl');
      const fd = openSync(path, 'a');
      let previous = '0123456789abcdef';
      return {
        turn: (steps) => {
          const encoded = encoder.encode(previous, group(steps));
          previous = encoded.hash;
          writeSync(fd, encoded.bytes);
        },
        close: () => {
          closeSync(fd);
          rmSync(path, { force: true });
        },
      };
    },
  },
  {
    name: 'recorder',
    open: () => {
      const path = join(dir, 'recorder.jsonl');
      const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
      recorder(header as never);
      return {
        turn: (steps) => {
          for (const step of steps) recorder(step as never);
        },
        close: () => {
          recorder.close();
          if (recorder.error) throw recorder.error;
          rmSync(path, { force: true });
        },
      };
    },
  },
];

try {
  console.log(`recording parts, alone (CPU µs per turn, ${turn.length} steps, median of ${ROUNDS} rounds of ${TURNS} turns); load ${load()}`);
  const spent = new Map(parts.map((part) => [part.name, [] as number[]]));
  for (let round = -2; round < ROUNDS; round++) {
    for (let k = 0; k < parts.length; k++) {
      const part = parts[(k + Math.max(round, 0)) % parts.length];
      const opened = part.open();
      // Fresh indexes per turn, as the recorder checks them (made before the clock starts).
      const turns = Array.from({ length: TURNS }, (_, t) => turn.map((step, i) => ({ ...step, index: 1 + t * turn.length + i })));
      const start = process.cpuUsage();
      for (const steps of turns) opened.turn(steps);
      const used = process.cpuUsage(start);
      opened.close();
      if (round >= 0) spent.get(part.name)!.push((used.user + used.system) / TURNS);
    }
  }
  for (const part of parts) console.log(`  ${part.name.padEnd(18)} ${median(spent.get(part.name)!).toFixed(2)}`);
  console.log(`load at end ${load()} (${sink > 0 ? 'ok' : ''})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
