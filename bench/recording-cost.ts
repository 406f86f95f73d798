/**
 * Where recording's cost goes: the bench workload at N=10, H=10 run with observers that each do one more of the
 * recorder's jobs, interleaved round by round (order rotated), median µs per turn pooled over the rounds:
 * - `no observer`: `query()` alone (the `turnloop` system);
 * - `serialise`: each event's text as the recorder makes it (what any log of the events must do): the events nearly
 *   every turn logs alike, a tool's result and the model's reply from templates (`commonEventJson`,
 *   `toolResultEventJson`, `modelMessageEventJson`), `JSON.stringify` of the others;
 * - `+ redaction check`: each text made and checked for secrets by the recorder's own `loggedEventJsons` (the
 *   common events' texts left out of the check and only the strings of a tool result's or a reply's template
 *   checked, as the recorder does when no secret value from the environment is masked);
 * - `+ hash chain`: and each line's digest `at`, and one SHA-256 chain hash per commit group (log version 3: the
 *   lines up to each model call), nothing written;
 * - `recorder → file`: `createSessionRecorder` to a file (line assembly, group commit: one `writeSync` per turn);
 * - `one write per group alone`: nothing but a `writeSync` of a turn's worth of bytes (1,660) to a file where the
 *   recorder commits (before each model call and at the end): the floor any log durable before the next model
 *   call pays, whatever it writes.
 * The variants call the recorder's own functions, so each row costs what that part of recording costs.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commonEventJson, loggedEventJsons, modelMessageEventJson, toolResultEventJson } from '../dist/replay/event-json.js';
import { createRedactor, secretValuesFromEnv } from '../dist/replay/redact.js';
import { createSessionRecorder, eventLinePrefix } from '../dist/replay/session-recorder.js';
import { lineHash } from '../dist/replay/stable-hash.js';
import type { LoopEvent } from '../src/data/events.ts';
import type { StepObserver } from '../src/runtime/query-options.ts';
import { median } from './stats.ts';
import { BENCH_CONFIG, runTurnloop } from './systems/turnloop.ts';
import { TurnProbe, type RunSpec } from './workload.ts';

export interface RecordingCostRow {
  variant: string;
  medianTurnMicros: number;
}

export interface RecordingCost {
  spec: RunSpec;
  rounds: number;
  rows: RecordingCostRow[];
}

interface Variant {
  name: string;
  /** A fresh observer for one run (or none), and what to do after the run. */
  open(path: string): { onStep?: StepObserver; close(): void };
}

const secretValues = secretValuesFromEnv(process.env);
const redact = createRedactor({ secretValues });
const checksCommon = secretValues.length > 0;
/** The recorder's template for an event, when it has one. */
const templateOf = (event: LoopEvent): string | null =>
  commonEventJson(event) ?? (event.type === 'tool_result' ? toolResultEventJson(event) : event.type === 'model_message' ? modelMessageEventJson(event) : null)?.[0] ?? null;
/** An event's logged text as the recorder makes it and checks it (one event at a time here, a group at once there). */
const loggedJson = (event: LoopEvent): string => loggedEventJsons([{ event }], redact, checksCommon).jsons[0];

/**
 * The "+ hash chain" row's observer: each line's text up to its hash member, one `lineHash` per commit group (where
 * the recorder commits: before each model call and at the end); with `fd`, the group's text is also written there
 * with one `writeSync` (`recording-gap-probe.ts`).
 */
export function hashChainObserver(fd: number | null): { onStep: StepObserver; close(): void } {
  let hash = '';
  let group = '';
  return {
    onStep: ({ index, event, state, effects }) => {
      if (!event) return;
      group += `${eventLinePrefix(index, loggedJson(event), state)}}\n`;
      if (!effects.some((effect) => effect.type === 'call_model' || effect.type === 'terminated')) return;
      hash = lineHash(hash, group);
      if (fd !== null) writeSync(fd, group);
      group = '';
    },
    close: () => {
      if (fd !== null) closeSync(fd);
      return void hash;
    },
  };
}

/** What the recorder writes per turn of this workload (7 lines), as one buffer. */
const A_TURN_OF_BYTES = Buffer.alloc(1_660, 0x20).fill(0x0a, 1_659);

const VARIANTS: Variant[] = [
  { name: 'no observer', open: () => ({ close: () => undefined }) },
  {
    name: 'serialise (templates for the common events, tool results and replies, JSON.stringify of the others)',
    open: () => {
      let sink = 0;
      return { onStep: ({ event }) => void (event && (sink += (templateOf(event) ?? JSON.stringify(event)).length)), close: () => void sink };
    },
  },
  {
    name: '+ redaction check (loggedEventJsons: the others\' texts, the templates\' strings)',
    open: () => {
      let sink = 0;
      return { onStep: ({ event }) => void (event && (sink += loggedJson(event).length)), close: () => void sink };
    },
  },
  {
    name: '+ hash chain (digest per line, SHA-256 per commit group, log v3)',
    open: () => hashChainObserver(null),
  },
  {
    name: 'recorder → file (createSessionRecorder: + lines, one write per turn)',
    open: (path) => {
      const recorder = createSessionRecorder(path, { config: BENCH_CONFIG });
      return {
        onStep: recorder,
        close: () => {
          recorder.close();
          if (recorder.error) throw recorder.error;
        },
      };
    },
  },
  {
    name: 'one write per group alone (writeSync of 1,660 bytes before each model call)',
    open: (path) => {
      const fd = openSync(path, 'a');
      return {
        onStep: ({ event, effects }) => {
          if (event && effects.some((effect) => effect.type === 'call_model' || effect.type === 'terminated')) writeSync(fd, A_TURN_OF_BYTES);
        },
        close: () => closeSync(fd),
      };
    },
  },
];

export async function measureRecordingCost(rounds: number, spec: RunSpec = { turns: 10, history: 10 }): Promise<RecordingCost> {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-bench-rec-'));
  const samples = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
  try {
    for (let round = -3; round < rounds; round++) {
      for (let k = 0; k < VARIANTS.length; k++) {
        const variant = VARIANTS[(k + Math.max(round, 0)) % VARIANTS.length];
        const path = join(dir, `run-${round}-${k}.jsonl`);
        const observer = variant.open(path);
        const probe = new TurnProbe();
        await runTurnloop(spec, probe, observer.onStep);
        observer.close();
        rmSync(path, { force: true });
        // Rounds below 0 warm up.
        if (round >= 0) samples.get(variant)?.push(...probe.turnMicros());
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { spec, rounds, rows: VARIANTS.map((v) => ({ variant: v.name, medianTurnMicros: median(samples.get(v) ?? []) })) };
}
