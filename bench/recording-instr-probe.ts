/**
 * What recording costs in instructions, for `valgrind --tool=callgrind` (repeatable whatever the machine's load):
 * one process runs the bench's workload through one build, with or without its recorder, the way `run.ts` runs the
 * `turnloop` and `turnloop+rec` cells (a warm-up of 5 runs at N=10, H=10 and one of 30 turns at H=100, then `RUNS`
 * runs at N=10, H=10, two full GCs before each, a new recorder to a new file each). Both builds are always loaded
 * (`core-ab-sides.ts`: `AB_BEFORE`, a directory with a `dist/` built by `npm run build`, and this repository), so
 * every process parses and compiles the same modules and only the code that runs differs; `SIDE` picks the one that
 * runs (`before` or `after`), `MODE` whether it records (`rec`) or not (`none`). Recording's cost per turn is
 * (instructions with `MODE=rec` - with `MODE=none`) / turns, and two builds' recorders compare as the difference
 * of their `MODE=rec` counts (the loop's code is the same in both when only the recorder changed).
 *
 * Usage (in bench/): `SIDE=after MODE=rec AB_BEFORE=/tmp/base valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out
 * node --expose-gc --single-threaded --import tsx recording-instr-probe.ts` (`RUNS`, default 20; `GCS=0`: no full
 * GCs). The counts include the full GCs between runs, which differ between the modes (a recorded run leaves more
 * to mark); `--toggle-collect='v8::internal::Heap::PreciseCollectAllGarbage*'` does not leave them out: with a
 * toggle, callgrind collects only inside the named function, so that gives the full GCs' instructions alone.
 */
import { join } from 'node:path';
import { loadSide } from './core-ab-sides.ts';
import { TurnProbe, type RunSpec } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const before = process.env.AB_BEFORE;
if (!before) throw new Error('recording-instr-probe: set AB_BEFORE to a directory with a built dist/');
const mode = process.env.MODE ?? 'rec';
const RUNS = Number(process.env.RUNS ?? 20);
const GCS = process.env.GCS !== '0';
const sides = { before: await loadSide('before', before), after: await loadSide('after', join(import.meta.dirname, '..')) };
const side = sides[(process.env.SIDE ?? 'after') as 'before' | 'after'];
let turns = 0;

async function oneRun(spec: RunSpec): Promise<void> {
  if (GCS) {
    collect();
    collect();
  }
  if (mode === 'rec') await side.runRecorded(spec, new TurnProbe());
  else await side.runQuery(spec, new TurnProbe());
  turns += spec.turns;
}

try {
  for (let i = 0; i < 5; i++) await oneRun({ turns: 10, history: 10 });
  await oneRun({ turns: 30, history: 100 });
  for (let i = 0; i < RUNS; i++) await oneRun({ turns: 10, history: 10 });
  console.log(`recording-instr-probe: ${side.name}, mode ${mode}, ${turns} turns`);
} finally {
  sides.before.cleanUp();
  sides.after.cleanUp();
}
