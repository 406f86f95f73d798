/**
 * The `turnloop` command line: dispatches to one command per file (`./commands/`, each loaded only when used).
 * Bad input of any kind ends with one clear message on stderr and exit code 2; `--debug` adds the stack trace.
 *
 * Messages: `turnloop <command>: <what went wrong>` on stderr, one line of hint at most; results on stdout.
 */
import { EXIT_BAD_INPUT, processIo, UsageError, type CliIo } from './cli-io.ts';
import { commands, type CommandEntry } from './commands/index.ts';
import { isHeadlessInvocation } from '../agent-sdk/headless-args.ts';
import { didYouMean } from '../errors/did-you-mean.ts';
import { redactingIo } from './redacting-io.ts';
import { packageVersion } from './version.ts';
import { messageOf } from '../errors/message-of.ts';

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 8);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'turnloop: the agent loop of a coding agent as an explicit, deterministic state machine.',
    '',
    'Usage: turnloop <command> [options]',
    '       turnloop help <command>      details of one command (same as turnloop <command> --help)',
    '       turnloop --version',
    '       turnloop -p "<prompt>" [--example NAME | --fake-api FILE] [--output-format text|json|stream-json]',
    '                                    Claude Code\'s headless mode (claude -p pipelines, the Agent SDK);',
    '                                    turnloop -p --help lists its options',
    '',
    'Commands:',
    ...lines,
    '',
    'Global options: --debug (stack traces), NO_COLOR=1 (plain output). Exit codes: 0 ok, 1 failed run, 2 bad input.',
    '',
  ].join('\n');
}

function unknownCommand(name: string, io: CliIo): number {
  const hint = didYouMean(name, commands.map((c) => c.name));
  io.stderr.write(`turnloop: unknown command '${name}'.${hint} Run 'turnloop --help' for the list.\n`);
  return EXIT_BAD_INPUT;
}

async function showHelp(entry: CommandEntry, io: CliIo): Promise<number> {
  const { help } = await entry.load();
  io.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
  return 0;
}

const findCommand = (name: string) => commands.find((c) => c.name === name);

export async function main(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  const debug = argv.includes('--debug');
  const args = argv.filter((arg) => arg !== '--debug');
  // Claude Code's headless command line (the Agent SDK, `claude -p` pipelines): before the subcommands. bin/ runs the
  // same entry from its one-file bundle; here (a library caller, a clone without dist/) it loads as modules.
  if (isHeadlessInvocation(args)) return (await import('./headless-entry.ts')).headlessMain(argv, rawIo);
  const io = redactingIo(rawIo);
  const [name, ...rest] = args;
  if (name === '--version' || name === '-v' || name === '-V') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(overview());
    return name === undefined ? EXIT_BAD_INPUT : 0;
  }
  if (name === 'help') {
    const entry = findCommand(rest[0]);
    // Help texts are ours, never secrets: printed as written (the redactor would mask "KEY: an HMAC..." as a secret).
    return entry ? showHelp(entry, rawIo) : unknownCommand(rest[0], io);
  }
  if (name.startsWith('-')) {
    const hint = didYouMean(name.replace(/^-+/, ''), ['help', 'version'], (n) => `--${n}`);
    io.stderr.write(`turnloop: unknown option '${name}' before a command.${hint} Run 'turnloop --help' for the list.\n`);
    return EXIT_BAD_INPUT;
  }
  const entry = findCommand(name);
  if (!entry) return unknownCommand(name, io);
  if (rest.includes('--help') || rest.includes('-h')) return showHelp(entry, rawIo);
  try {
    const command = await entry.load();
    // Markup and code (HTML, exports) redact their own data: only their stderr goes through the redactor.
    return await command.run(rest, command.rawStdout ? redactingIo(rawIo, true) : io);
  } catch (error) {
    const message = messageOf(error);
    // A value too deep for a recursive walk is bad input, whichever code walked it.
    const tooDeep = error instanceof RangeError && /call stack/.test(message);
    io.stderr.write(`turnloop ${name}: ${tooDeep ? 'the input nests too deeply to be processed (maximum call stack size exceeded)' : message}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return tooDeep || error instanceof UsageError || (error as { exitCode?: number }).exitCode === EXIT_BAD_INPUT ? EXIT_BAD_INPUT : 1;
  }
}
