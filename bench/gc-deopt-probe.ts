/**
 * `npm run bench:gc-deopt` (in bench/): what a full GC between runs costs the core's optimized code.
 *
 * A child process folds the first 10,000 events of the bench session (`core-ab-sides.ts`, the replay section's
 * input) through the build's fold (a fresh memoized stepper per fold where the build has one), five times to warm
 * up, then 15 times each right after a full GC. It runs twice: once timed, once under `--trace-deopt`, where every
 * optimized function V8 throws away because an object its code embedded died ("reason: weak objects") is counted.
 * The build is this repository's `dist/`, and the one in `AB_BEFORE` (default `/tmp/chk-main`) when it is built.
 *
 * Why: a shape built field by field (a class instance, `Object.assign({}, ...)`) lives only as long as its objects.
 * When a run's objects are all garbage, the next full GC drops their shapes and deoptimizes every function whose
 * code embedded them, so the next run starts cold (docs/architecture.md, "Shapes that outlive a run").
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadSide } from './core-ab-sides.ts';
import { median } from './stats.ts';

const FOLDS = 15;
const WARM_UP = 5;
const MARK = '--- measured folds';

async function child(name: 'before' | 'after', root: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const side = await loadSide(name, root);
  const { folded } = await side.replayInput();
  for (let i = 0; i < WARM_UP; i++) side.fold(folded, () => undefined);
  console.log(MARK);
  const times: number[] = [];
  for (let i = 0; i < FOLDS; i++) {
    gc();
    const started = performance.now();
    side.fold(folded, () => undefined);
    times.push(performance.now() - started);
  }
  side.cleanUp();
  console.log(JSON.stringify({ medianMs: median(times) }));
}

function probe(name: 'before' | 'after', root: string): { medianMs: number; weakDeopts: number } {
  const run = (flags: string[]) => {
    const out = spawnSync(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', import.meta.filename, '--child', name, root], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (out.status !== 0) throw new Error(`the ${name} probe failed: ${out.stderr}`);
    return out.stdout;
  };
  const timed = run([]).trim().split('\n');
  const { medianMs } = JSON.parse(timed[timed.length - 1]) as { medianMs: number };
  const traced = run(['--trace-deopt']);
  const measured = traced.slice(traced.indexOf(MARK));
  const weakDeopts = measured.split('\n').filter((line) => line.includes('reason: weak objects')).length;
  return { medianMs, weakDeopts };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as 'before' | 'after', process.argv[4]);
} else {
  const before = process.env.AB_BEFORE ?? '/tmp/chk-main';
  const sides: Array<['before' | 'after', string]> = [['after', join(import.meta.dirname, '..')]];
  if (existsSync(join(before, 'dist', 'index.js'))) sides.unshift(['before', before]);
  console.log(`a fold of 10,000 events after a full GC, ${FOLDS} folds per build`);
  for (const [name, root] of sides) {
    const { medianMs, weakDeopts } = probe(name, root);
    console.log(`${name.padEnd(6)} ${root}: median ${medianMs.toFixed(1)} ms per fold; ${(weakDeopts / FOLDS).toFixed(1)} functions deoptimized per fold (weak objects)`);
  }
}
