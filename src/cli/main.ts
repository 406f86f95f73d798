/**
 * The `turnloop` command line: dispatches to one command per file (`./commands/`). Bad input of any kind ends
 * with one clear message on stderr and exit code 2; `--debug` adds the stack trace.
 */
import { EXIT_BAD_INPUT, processIo, UsageError, type CliIo } from './cli-io.ts';
import { commands } from './commands/index.ts';

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 8);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'turnloop: the agent loop of a coding agent as an explicit, deterministic state machine.',
    '',
    'Usage: turnloop <command> [options]   (turnloop <command> --help for details)',
    '',
    'Commands:',
    ...lines,
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const debug = argv.includes('--debug');
  const args = argv.filter((arg) => arg !== '--debug');
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(overview());
    return name === undefined ? EXIT_BAD_INPUT : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`turnloop: unknown command '${name}'. Run 'turnloop --help' for the list.\n`);
    return EXIT_BAD_INPUT;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.help.endsWith('\n') ? command.help : `${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`turnloop ${name}: ${message}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return error instanceof UsageError || (error as { exitCode?: number }).exitCode === EXIT_BAD_INPUT ? EXIT_BAD_INPUT : 1;
  }
}
