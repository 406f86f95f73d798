/**
 * Instruction counts of the reducer as the drivers step it (round 17, docs/benchmarks.md "Round 17: core"): a
 * recorded N=10, H=10 session folded through `createStepMemo` + `stepWithMemo` (the interpreter's and replay's
 * memo, which may carry its scratch from step to step), not `createStepper` (the public stepper, which
 * `core-instr-probe.ts`'s `fold` mode uses, and which always refills).
 *
 * `node --import tsx driver-fold-instr-probe.ts <root> <folds>` (in bench/), under
 * `valgrind --tool=callgrind --callgrind-out-file=/dev/null node --max-opt=1 ...` with 0 and with k folds: the
 * difference over k is the instructions of one fold (start-up and the 60 warm-up folds cancel, to within the
 * spread between processes). Every fold shares the process's chart paths (`sharedChartPaths`), as the drivers do.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { loadSide } from './core-ab-sides.ts';

const [root, foldsText] = process.argv.slice(2);
if (!root) throw new Error('usage: driver-fold-instr-probe.ts <root> <folds>');
const folds = Number(foldsText ?? 0);
const load = async (path: string) => (await import(pathToFileURL(join(root, 'dist', path)).href)) as Record<string, (...args: never[]) => never>;
const { createStepMemo, initialStateWithMemo, stepWithMemo } = await load('reducer/stepper.js');
const { sharedChartPaths } = await load('runtime/chart-paths.js');
const { resolveConfig } = await load('config/config.js');
const side = await loadSide('after', root);
const session = await side.session({ turns: 10, history: 10 });
const config = resolveConfig({ sessionId: 'bench', limits: { maxModelCalls: 1_000_000 } } as never);

function fold(): number {
  const owned = createStepMemo(sharedChartPaths() as never);
  let result = initialStateWithMemo(owned as never, session.params as never, config as never) as { state: { status: string } };
  let steps = 0;
  for (const event of session.events) {
    result = stepWithMemo(owned as never, result.state as never, event as never, config as never);
    steps += 1;
  }
  if (result.state.status !== 'done') throw new Error('the fold did not reach its end');
  return steps;
}

for (let i = 0; i < 60; i++) fold();
for (let i = 0; i < folds; i++) fold();
side.cleanUp();
