/**
 * `npm run bench:gc-deopt` (in bench/): what a full GC between runs costs the optimized code of the core and of
 * the query path.
 *
 * Two workloads, each in a child process per build:
 * - fold: the first 10,000 events of the bench session (`core-ab-sides.ts`, the replay section's input) through
 *   the build's fold (a fresh memoized stepper per fold where the build has one), five times to warm up, then 15
 *   times each right after a full GC;
 * - query: the bench's `query()` workload at N=100 (`core-ab-sides.ts`, recording off), five runs to warm up, then
 *   100 runs each right after a full GC.
 * Each child runs twice: once timed, once under `--trace-opt --trace-deopt`, where every optimized function V8
 * throws away because an object its code embedded died ("reason: weak objects") is counted, and so is every
 * function it optimizes (again). The builds are this repository's `dist/`, and the one in `AB_BEFORE` (default
 * `/tmp/chk-main`) when it is built. `GC_DEOPT_WORK=fold` or `=query` runs one workload.
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
import { TurnProbe } from './workload.ts';

const WORK = { fold: { runs: 15, unit: 'fold' }, query: { runs: 100, unit: 'run' } } as const;
type Work = keyof typeof WORK;
const WARM_UP = 5;
const MARK = '--- measured runs';
const QUERY_SIZE = { turns: 100, history: 0 };

async function child(work: Work, name: 'before' | 'after', root: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const side = await loadSide(name, root);
  const folded = work === 'fold' ? (await side.replayInput()).folded : null;
  const once = async (): Promise<number> => {
    if (folded) {
      const started = performance.now();
      side.fold(folded, () => undefined);
      return performance.now() - started;
    }
    const probe = new TurnProbe();
    await side.runQuery(QUERY_SIZE, probe);
    return median(probe.turnMicros()) / 1000;
  };
  for (let i = 0; i < WARM_UP; i++) await once();
  console.log(MARK);
  const times: number[] = [];
  for (let i = 0; i < WORK[work].runs; i++) {
    gc();
    times.push(await once());
  }
  side.cleanUp();
  console.log(JSON.stringify({ medianMs: median(times) }));
}

interface ProbeResult {
  /** The median fold (ms), or the median of the runs' per-turn medians (ms). */
  medianMs: number;
  weakDeopts: number;
  optimizations: number;
}

function probe(work: Work, name: 'before' | 'after', root: string): ProbeResult {
  const run = (flags: string[]) => {
    const out = spawnSync(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', import.meta.filename, '--child', work, name, root], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    if (out.status !== 0) throw new Error(`the ${name} ${work} probe failed: ${out.stderr}`);
    return out.stdout;
  };
  const timed = run([]).trim().split('\n');
  const { medianMs } = JSON.parse(timed[timed.length - 1]) as { medianMs: number };
  const traced = run(['--trace-opt', '--trace-deopt']);
  const measured = traced.slice(traced.indexOf(MARK)).split('\n');
  const count = (text: string) => measured.filter((line) => line.includes(text)).length;
  return { medianMs, weakDeopts: count('reason: weak objects'), optimizations: count('completed optimizing') };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Work, process.argv[4] as 'before' | 'after', process.argv[5]);
} else {
  const before = process.env.AB_BEFORE ?? '/tmp/chk-main';
  const sides: Array<['before' | 'after', string]> = [['after', join(import.meta.dirname, '..')]];
  if (existsSync(join(before, 'dist', 'index.js'))) sides.unshift(['before', before]);
  const works = process.env.GC_DEOPT_WORK ? [process.env.GC_DEOPT_WORK as Work] : (Object.keys(WORK) as Work[]);
  for (const work of works) {
    if (!(work in WORK)) throw new Error(`GC_DEOPT_WORK: "${work}" is not one of ${Object.keys(WORK).join(', ')}`);
    const { runs, unit } = WORK[work];
    console.log(work === 'fold' ? `a fold of 10,000 events after a full GC, ${runs} folds per build` : `query() at N=100 after a full GC, ${runs} runs per build`);
    for (const [name, root] of sides) {
      const { medianMs, weakDeopts, optimizations } = probe(work, name, root);
      const time = work === 'fold' ? `median ${medianMs.toFixed(1)} ms per fold` : `median per-turn time ${(medianMs * 1000).toFixed(0)} µs`;
      console.log(`${name.padEnd(6)} ${root}: ${time}; per ${unit}: ${(weakDeopts / runs).toFixed(2)} functions deoptimized (weak objects), ${(optimizations / runs).toFixed(2)} optimized`);
    }
  }
}
