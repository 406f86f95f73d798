/**
 * The `turnloop` command line: dispatches to one command per file (`./commands/`). Bad input of any kind ends
 * with one clear message on stderr and exit code 2; `--debug` adds the stack trace.
 */
import { EXIT_BAD_INPUT, processIo, UsageError, type CliIo } from './cli-io.ts';
import { commands } from './commands/index.ts';
import { redactingIo } from './redacting-io.ts';

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

export async function main(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  const io = redactingIo(rawIo, commands.find((c) => c.name === argv[0])?.rawStdout === true);
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
    // A value too deep for a recursive walk is bad input, whichever code walked it.
    const tooDeep = error instanceof RangeError && /call stack/.test(message);
    io.stderr.write(`turnloop ${name}: ${tooDeep ? 'the input nests too deeply to be processed (maximum call stack size exceeded)' : message}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return tooDeep || error instanceof UsageError || (error as { exitCode?: number }).exitCode === EXIT_BAD_INPUT ? EXIT_BAD_INPUT : 1;
  }
}
