/**
 * Import time of the package root, as a user pays it: a fresh `node` process imports the built entry point
 * (`dist/index.js`, what `import 'turnloop'` resolves to) and reports the wall time of the `import()` alone
 * (process start-up excluded). The AI SDK's root (`ai`) is measured the same way, interleaved, for comparison.
 * Median over the samples. Needs `npm run build` at the repo root (`npm ci` runs it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface ImportTimes {
  /** Null when the root could not be imported (not built); `error` says why. */
  turnloopMs: number | null;
  error?: string;
  aiSdkMs: number;
  samples: number;
}

function importMillis(specifier: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return Number(out);
}

export function measureImportTimes(samples = 7): ImportTimes {
  const entry = join(here, '..', 'dist', 'index.js');
  let error = existsSync(entry) ? undefined : 'dist/index.js is missing (run npm run build)';
  const ours: number[] = [];
  const ai: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (error === undefined) {
      try {
        ours.push(importMillis(pathToFileURL(entry).href));
      } catch (caught) {
        error = String((caught as { stderr?: string }).stderr ?? caught).split('\n').find((line) => line.startsWith('Error')) ?? 'import failed';
      }
    }
    ai.push(importMillis('ai'));
  }
  return { turnloopMs: error === undefined ? median(ours) : null, ...(error === undefined ? {} : { error }), aiSdkMs: median(ai), samples };
}
