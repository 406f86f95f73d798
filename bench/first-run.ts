/**
 * The cost of a first run: one system's one run at one size in a fresh `node` process, after only the imports
 * (module loading is measured on its own: `import-time.ts`). What a short-lived process pays (a CLI call, a
 * serverless handler, a test): nothing is compiled yet, no cache is warm. `run.ts` puts it beside each cell's warm
 * run (the median run of the interleaved rounds).
 *
 * As a child (`node --expose-gc --import tsx first-run.ts <system label> <size id>`) it prints one JSON line:
 * `{ runMs, turnMicros }`: the run's wall time from the call to its return (set-up included) and its per-turn
 * times. `measureFirstRuns` spawns one child per cell, one after another.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SIZES, SYSTEMS } from './matrix.ts';
import { checkRun, TurnProbe } from './workload.ts';

export interface FirstRun {
  system: string;
  size: string;
  /** Wall ms of the whole first run, or null when the child failed (`error` says why). */
  runMs: number | null;
  /** Median per-turn µs of that run. */
  medianTurnMicros: number | null;
  error?: string;
}

/** One child per cell (system × size; `sizes` picks sizes by id), in order; a failed child is reported, not retried. */
export function measureFirstRuns(sizes: string[] | undefined, onProgress: () => void = () => undefined): FirstRun[] {
  const script = fileURLToPath(import.meta.url);
  const results: FirstRun[] = [];
  for (const size of SIZES.filter((s) => !sizes || sizes.includes(s.id))) {
    for (const system of SYSTEMS) {
      const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, system.label, size.id], {
        cwd: fileURLToPath(new URL('.', import.meta.url)),
        encoding: 'utf8',
        timeout: 180_000,
      });
      const line = child.stdout?.trim().split('\n').pop() ?? '';
      try {
        const { runMs, turnMicros } = JSON.parse(line) as { runMs: number; turnMicros: number[] };
        const sorted = [...turnMicros].sort((a, b) => a - b);
        results.push({ system: system.label, size: size.id, runMs, medianTurnMicros: sorted[Math.floor(sorted.length / 2)] ?? null });
      } catch {
        const why = child.error?.message ?? (child.stderr?.trim().split('\n').slice(-3).join(' ') || `exit ${child.status}`);
        results.push({ system: system.label, size: size.id, runMs: null, medianTurnMicros: null, error: why });
      }
      onProgress();
    }
  }
  return results;
}

async function child(label: string, sizeId: string): Promise<void> {
  const system = SYSTEMS.find((s) => s.label === label);
  const size = SIZES.find((s) => s.id === sizeId);
  if (!system || !size) throw new Error(`first-run: unknown system "${label}" or size "${sizeId}"`);
  // Outside the measured window, as in run.ts (the fold records the session it folds).
  await system.before?.(size);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const probe = new TurnProbe();
  const started = performance.now();
  await system.run(size, probe);
  const runMs = performance.now() - started;
  checkRun(label, size, probe);
  process.stdout.write(`${JSON.stringify({ runMs, turnMicros: probe.turnMicros() })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [label, sizeId] = process.argv.slice(2);
  try {
    await child(label ?? '', sizeId ?? '');
  } finally {
    (await import('./systems/turnloop.ts')).cleanUpRecordings();
  }
}
