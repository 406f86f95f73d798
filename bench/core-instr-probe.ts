/**
 * Instruction counts of turnloop's `query()` turns and `step()` fold (round 15, docs/benchmarks.md "Round 15: less
 * work per turn"), for `valgrind --tool=callgrind`, which counts the same on a loaded machine as on a quiet one.
 *
 * `node --import tsx core-instr-probe.ts <root> <query|fold> <runs>` (in bench/): loads the build at `<root>/dist`
 * (`core-ab-sides.ts`), warms up as the bench does before its N=10 cell (five runs at H=10, one of 30 turns; for the
 * fold, 60 folds), then makes `<runs>` more runs (or folds) at N=10, H=10, between two calls of `os.loadavg()`
 * (libuv's `uv_loadavg`), which mark the measured stretch for callgrind: `--dump-before=uv_loadavg` writes one
 * profile per stretch, and the second holds only the measured runs (start-up and warm-up vary by a few percent
 * between two processes of one build; this does not). `--max-opt=1` on node keeps every function in the baseline
 * tier, the state most of a short cell's code is in (docs/benchmarks.md "Round 14: the shell's share of a cold
 * short turn"); without it the figure is closer to a warm turn.
 *
 *   valgrind --tool=callgrind --dump-before=uv_loadavg --callgrind-out-file=/tmp/ci.%p node --max-opt=1 --import tsx core-instr-probe.ts /tmp/r15-base-core query 300
 *   grep -h '^summary:' /tmp/ci.<pid>.2      # instructions of the 300 runs
 */
import { loadavg } from 'node:os';
import { loadSide } from './core-ab-sides.ts';
import { TurnProbe } from './workload.ts';

const [root, what, runsText] = process.argv.slice(2);
if (!root || (what !== 'query' && what !== 'fold')) throw new Error('usage: core-instr-probe.ts <root> <query|fold> <runs>');
const runs = Number(runsText ?? 0);
const side = await loadSide('after', root);
const spec = { turns: 10, history: 10 };
if (what === 'query') {
  for (let i = 0; i < 5; i++) await side.runQuery(spec, new TurnProbe());
  await side.runQuery({ turns: 30, history: 0 }, new TurnProbe());
  loadavg();
  for (let i = 0; i < runs; i++) await side.runQuery(spec, new TurnProbe());
  loadavg();
} else {
  const session = await side.session(spec);
  for (let i = 0; i < 60; i++) side.fold(session, () => {});
  loadavg();
  for (let i = 0; i < runs; i++) side.fold(session, () => {});
  loadavg();
}
side.cleanUp();
