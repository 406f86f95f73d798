/** The pure core's source files (`src/data`, `src/rules`, `src/machine`, `src/reducer`), for the tests that scan them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPO_ROOT = join(import.meta.dirname, '../..');
const CORE = ['src/data', 'src/rules', 'src/machine', 'src/reducer'];

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

/** What `find` reports in the pure core's files, each line prefixed with its file (relative to the repository). */
export function coreOffenders(find: (source: string) => string[]): string[] {
  return coreSourceFiles().flatMap((file) => find(readFileSync(file, 'utf8')).map((line) => `${relative(REPO_ROOT, file)}: ${line}`));
}
