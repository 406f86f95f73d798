/**
 * The demo's sample project: where it ships, copying it to a temporary directory, and the diff of what a run
 * changed in the copy.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unifiedDiff } from './line-diff.ts';
import { TurnloopError } from '../../errors/turnloop-error.ts';

/** `examples/demo-project/` of this package. */
export const DEMO_PROJECT_DIR = fileURLToPath(new URL('../../../examples/demo-project/', import.meta.url));

/** Copies the sample project into a fresh temporary directory: `<base>/project`. */
export function copyDemoProject(source = DEMO_PROJECT_DIR): { base: string; project: string } {
  if (!existsSync(source)) throw new TurnloopError('DEMO_PROJECT_MISSING', `the sample project is missing: ${source}`);
  const base = mkdtempSync(join(tmpdir(), 'turnloop-demo-'));
  const project = join(base, 'project');
  cpSync(source, project, { recursive: true });
  return { base, project };
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(root, join(dir, entry.name)) : entry.isFile() ? [relative(root, join(dir, entry.name))] : []));
}

/** The unified diff of every file that differs between the original and the copy (new files included). */
export function diffProjects(original: string, copy: string): string {
  const files = [...new Set([...listFiles(original), ...listFiles(copy)])].sort();
  const read = (root: string, file: string) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '');
  return files
    .map((file) => unifiedDiff(read(original, file), read(copy, file), { oldName: `a/${file}`, newName: `b/${file}` }))
    .join('');
}
