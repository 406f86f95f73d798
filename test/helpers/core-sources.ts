/** The pure core's source files (`src/reducer`, `src/machine`), for the tests that scan them. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '../..');
const CORE = ['src/reducer', 'src/machine'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Absolute paths of every `.ts` file of the pure core. */
export function coreSourceFiles(): string[] {
  return CORE.flatMap((dir) => filesUnder(join(REPO_ROOT, dir)));
}
