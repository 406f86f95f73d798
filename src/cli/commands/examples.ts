/**
 * `turnloop examples`: where the shipped examples are (scenarios, Claude Code transcripts, the demo project), so
 * that the README's commands work from an install as from a clone.
 */
import { join } from 'node:path';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { EXAMPLES_DIR, exampleNames, type ExampleKind } from '../examples.ts';
import { parseFlags } from './parse-flags.ts';

const HELP = `Usage: turnloop examples [--json]

Lists the examples that ship with turnloop and where they are on disk: the scenarios (run one with
turnloop simulate --example NAME), the Claude Code transcripts (turnloop check-claude --example NAME,
turnloop import-claude --example NAME --out DIR), the fake-API scripts of the headless mode
(turnloop -p "<prompt>" --example NAME) and the demo's sample project.

Options:
  --json    {"dir", "scenarios": {name: path}, "transcripts": {name: path}, "fakeApiScripts": {name: path}, "demoProject"}`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('examples', args, { json: { type: 'boolean', default: false } });
  if (positionals.length > 0) throw new UsageError(`turnloop examples takes no arguments, got '${positionals[0]}' (see turnloop examples --help)`);
  const listed = (kind: ExampleKind, ext: string) => Object.fromEntries(exampleNames(kind).map((name) => [name, join(EXAMPLES_DIR, kind, `${name}${ext}`)]));
  const scenarios = listed('scenarios', '.json');
  const transcripts = listed('transcripts', '.jsonl');
  const fakeApiScripts = listed('agent-sdk', '.json');
  const demoProject = join(EXAMPLES_DIR, 'demo-project');
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ dir: EXAMPLES_DIR, scenarios, transcripts, fakeApiScripts, demoProject }, null, 2)}\n`);
    return EXIT_OK;
  }
  const width = Math.max(...[...Object.keys(scenarios), ...Object.keys(transcripts), ...Object.keys(fakeApiScripts)].map((name) => name.length));
  const rows = (entries: Record<string, string>) => Object.entries(entries).map(([name, path]) => `  ${name.padEnd(width)}  ${path}`);
  io.stdout.write(
    [
      'Scenarios (turnloop simulate --example NAME):',
      ...rows(scenarios),
      '',
      'Claude Code transcripts (turnloop check-claude --example NAME):',
      ...rows(transcripts),
      '',
      'Fake-API scripts of the headless mode (turnloop -p "<prompt>" --example NAME):',
      ...rows(fakeApiScripts),
      '',
      `The demo's sample project (turnloop demo copies it): ${demoProject}`,
      '',
    ].join('\n'),
  );
  return EXIT_OK;
}

export const examplesCommand: CliCommand = {
  name: 'examples',
  help: HELP,
  run,
};
