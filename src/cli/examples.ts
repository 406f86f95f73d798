/**
 * The examples this package ships (scenarios, Claude Code transcripts, the demo project), found next to the
 * installed code, so that a command can name one (`simulate --example completed`) wherever the user stands.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './cli-io.ts';
import { didYouMean } from '../errors/did-you-mean.ts';

/** `examples/` of this package (in a clone and in node_modules/turnloop alike). */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

export type ExampleKind = 'scenarios' | 'transcripts';
const EXTENSION: Record<ExampleKind, string> = { scenarios: '.json', transcripts: '.jsonl' };

/** The names of the shipped examples of one kind, sorted (file names without the extension). */
export function exampleNames(kind: ExampleKind): string[] {
  const dir = join(EXAMPLES_DIR, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith(EXTENSION[kind])).map((name) => name.slice(0, -EXTENSION[kind].length)).sort();
}

/** The absolute path of a shipped example; an unknown name is bad input that lists or suggests the known ones. */
export function examplePath(kind: ExampleKind, name: string): string {
  const names = exampleNames(kind);
  if (!names.includes(name)) {
    const hint = didYouMean(name, names, (n) => n) || ` Known: ${names.join(', ')}.`;
    throw new UsageError(`--example: no ${kind === 'scenarios' ? 'scenario' : 'transcript'} named '${name}' ships with turnloop.${hint} (turnloop examples lists them)`);
  }
  return join(EXAMPLES_DIR, kind, `${name}${EXTENSION[kind]}`);
}
