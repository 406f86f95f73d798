/**
 * The bench measures turnloop as users run it: the compiled `dist/` (plain JavaScript, like every peer's package),
 * not `src/` through tsx, whose transform wraps every closure created at run time in a naming call (~5-10% of a
 * turn). `npm run bench` at the repo root builds first; this refuses a `dist/` older than any TypeScript source.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    // Sources only: the build itself writes generated files into src/ (the viewer bundle) after dist/index.js.
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function assertDistFresh(): void {
  const entry = join(root, 'dist', 'index.js');
  let built: number;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    throw new Error(`${entry} is missing: run \`npm run build\` at the repo root (\`npm run bench\` there does)`);
  }
  if (newestMtime(join(root, 'src')) > built) {
    throw new Error('dist/ is older than src/: run `npm run build` at the repo root (`npm run bench` there does)');
  }
}
