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

/** Each kind is a folder of examples/: scenarios, Claude Code transcripts, fake-API scripts of the headless mode. */
export type ExampleKind = 'scenarios' | 'transcripts' | 'agent-sdk';
const EXTENSION: Record<ExampleKind, string> = { scenarios: '.json', transcripts: '.jsonl', 'agent-sdk': '.json' };
const NOUN: Record<ExampleKind, string> = { scenarios: 'scenario', transcripts: 'transcript', 'agent-sdk': 'fake-API script' };
/** The command line that runs an example of each kind. */
const USE: Record<ExampleKind, (name: string) => string> = {
  scenarios: (name) => `turnloop simulate --example ${name}`,
  transcripts: (name) => `turnloop check-claude --example ${name}`,
  'agent-sdk': (name) => `turnloop -p "<prompt>" --example ${name}`,
};

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
    throw new UsageError(`--example: no ${NOUN[kind]} named '${name}' ships with turnloop.${hint} (turnloop examples lists them)`);
  }
  return join(EXAMPLES_DIR, kind, `${name}${EXTENSION[kind]}`);
}

const IN_EXAMPLES = /(?:^|[\\/])examples[\\/](scenarios|transcripts|agent-sdk)[\\/]([^\\/]+)$/;

/**
 * For a missing file whose path points into `examples/` (a README command copied into a project that installed
 * turnloop, where only the clone has that folder): where the example really is and the flag that names it; '' when
 * the path is not an example's.
 */
export function shippedExampleHint(missingPath: string): string {
  const match = IN_EXAMPLES.exec(missingPath);
  if (!match) return '';
  const kind = match[1] as ExampleKind;
  const name = match[2].endsWith(EXTENSION[kind]) ? match[2].slice(0, -EXTENSION[kind].length) : match[2];
  if (!exampleNames(kind).includes(name)) return `; the examples that ship with turnloop are listed by turnloop examples`;
  return `; the examples ship inside turnloop: ${USE[kind](name)}, or the file ${join(EXAMPLES_DIR, kind, `${name}${EXTENSION[kind]}`)}`;
}
