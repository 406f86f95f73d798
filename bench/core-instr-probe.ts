/**
 * Instruction counts of turnloop's `query()` turns and `step()` fold (round 15, docs/benchmarks.md "Round 15: less
 * work per turn"), for `valgrind --tool=callgrind`, which counts the same on a loaded machine as on a quiet one.
 *
 * `node --import tsx core-instr-probe.ts <root> <query|fold> <runs>` (in bench/): loads the build at `<root>/dist`
 * (`core-ab-sides.ts`), warms up as the bench does before its N=10 cell (five runs at H=10, one of 30 turns; for the
 * fold, 60 folds), then makes `<runs>` more runs (or folds) at N=10, H=10. Run it under callgrind with 0 and with k
 * runs and divide the difference by k: start-up and warm-up cancel, but only to within about 0.2 billion
 * instructions (two processes of one build differ by that much), so k must be large (1,000 runs of `query()`, a
 * few thousand folds). `--max-opt=1` on node keeps every function in the baseline tier, the state most of a short
 * cell's code is in (docs/benchmarks.md "Round 14: the shell's share of a cold short turn"); without it the figure
 * is closer to a warm turn.
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --max-opt=1 --import tsx core-instr-probe.ts /tmp/r15-base-core query 1000
 *
 * (the total is in callgrind's last line on stderr: "Collected : <n>"). Marking the measured stretch for callgrind
 * (`--dump-before` on a native function called around it) was tried: one run worked, later ones hung or wrote no
 * dumps.
 */
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
  for (let i = 0; i < runs; i++) await side.runQuery(spec, new TurnProbe());
} else {
  const session = await side.session(spec);
  for (let i = 0; i < 60; i++) side.fold(session, () => {});
  for (let i = 0; i < runs; i++) side.fold(session, () => {});
}
side.cleanUp();
