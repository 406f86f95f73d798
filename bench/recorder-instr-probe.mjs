/**
 * Instruction counts of the recorder's own work under callgrind, in plain JavaScript (round 18, docs/benchmarks.md
 * "Round 18: rec"). The workload is `probe-workload.mjs`'s (the bench's: `runLoopToEnd` with the scripted model,
 * one echo call per turn, the bench's warm-up of five runs at N=10, H=10 and one of 30 turns), and `MODE` picks what
 * the measured part does:
 * - `none`: `<runs>` runs at N=10, H=10 without recording;
 * - `rec`: the same runs, each recorded by a new `createSessionRecorder` to a new file (as the bench's
 *   `turnloop+rec` cell: set-up, header, `close()` included), so `rec - none` is what recording adds to a run;
 * - `setup`: a new recorder to a new file, the run's header (step 0) and `close()`, `<runs>` times: what a
 *   recorded run pays once, outside its turns;
 * - `turns`: the recorder alone: the step records of one run are captured once (in the warm-up, which always
 *   records), then one recorder to one file is fed `<runs>` copies of that run's ten tool turns (7 records each,
 *   indexes shifted, the same event, state and effects objects): one commit group per turn, no loop code at all.
 *   The difference between `<runs>` = k and 0, over 10k, is the recorder's instructions per turn.
 *
 *   MODE=turns valgrind --tool=callgrind --callgrind-out-file=/dev/null node --max-opt=1 recorder-instr-probe.mjs <root> <runs>
 *
 * (in bench/; `<root>/dist` is the build; the total is in callgrind's "Collected" line). `--max-opt=1` keeps every
 * function in the baseline tier, as most of the bench's N=10 cell is. Files go to a new directory under the system's
 * temporary directory, removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProbeWorkload } from './probe-workload.mjs';

const [root, runsText] = process.argv.slice(2);
if (!root) throw new Error('usage: recorder-instr-probe.mjs <root> <runs>');
const runs = Number(runsText ?? 0);
const mode = process.env.MODE ?? 'turns';
const { load, config, echo, scriptedCaller, history, runLoopToEnd } = await loadProbeWorkload(root);
const { createSessionRecorder } = await load('replay/session-recorder.js');
const dir = mkdtempSync(join(tmpdir(), 'recorder-instr-'));
let files = 0;

/** One run; recorded to a new file unless `record` is false; `capture` gets every step record. */
async function run(turns, historySize, record, capture) {
  const recorder = record ? createSessionRecorder(join(dir, `r${++files}.jsonl`), { config }) : null;
  const onStep = capture ? (step) => { capture.push(step); recorder?.(step); } : recorder;
  try {
    const { terminal } = await runLoopToEnd({ messages: history(historySize), prompt: 'Call echo until told otherwise.', tools: [echo], config, deps: { callModel: scriptedCaller(turns) }, ...(onStep ? { onStep } : {}) });
    if (terminal.reason !== 'completed') throw new Error(`ended with ${terminal.reason}`);
    if (recorder?.error) throw recorder.error;
  } finally {
    recorder?.close();
  }
}

try {
  const warmRecords = mode !== 'none';
  const captured = [];
  for (let i = 0; i < 5; i++) await run(10, 10, warmRecords, i === 4 ? captured : undefined);
  await run(30, 0, warmRecords);
  if (mode === 'turns') {
    // The ten tool turns: from the first model call's step up to the eleventh's (7 records each).
    const calls = captured.flatMap((step, i) => (step.effects.some((effect) => effect.type === 'call_model') ? [i] : []));
    const turn = captured.slice(calls[0] + 1, calls[10] + 1);
    if (turn.length !== 70) throw new Error(`expected 70 records in ten turns, got ${turn.length}`);
    const recorder = createSessionRecorder(join(dir, 'turns.jsonl'), { config });
    recorder(captured[0]);
    let index = 1;
    for (let i = 0; i < runs; i++) {
      for (const step of turn) recorder({ index: index++, event: step.event, state: step.state, effects: step.effects });
    }
    recorder.close();
    if (recorder.error) throw recorder.error;
  } else if (mode === 'setup') {
    for (let i = 0; i < runs; i++) {
      const recorder = createSessionRecorder(join(dir, `s${i}.jsonl`), { config });
      recorder(captured[0]);
      recorder.close();
      if (recorder.error) throw recorder.error;
    }
  } else {
    for (let i = 0; i < runs; i++) await run(10, 10, mode === 'rec');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
