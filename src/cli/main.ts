/**
 * The `turnloop` command line: dispatches to one command per file (`./commands/`, each loaded only when used).
 * Bad input of any kind ends with one clear message on stderr and exit code 2; `--debug` adds the stack trace.
 *
 * Messages: `turnloop <command>: <what went wrong>` on stderr, one line of hint at most; results on stdout.
 */
import { EXIT_BAD_INPUT, processIo, UsageError, type CliIo } from './cli-io.ts';
import { commands, type CommandEntry } from './commands/index.ts';
import { isHeadlessInvocation, parseHeadlessArgs } from '../agent-sdk/headless-args.ts';
import { didYouMean } from '../errors/did-you-mean.ts';
import { redactingIo } from './redacting-io.ts';
import { packageVersion } from './version.ts';
import { messageOf } from '../errors/message-of.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { examplePath, shippedExampleHint } from './examples.ts';
import { HEADLESS_HELP } from './headless-help.ts';

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

/**
 * turnloop's own flags of the headless mode, resolved before Claude Code's parser sees the line: `--example NAME`
 * becomes `--fake-api <the shipped script>`; a `--fake-api` path into a clone's examples/ that is missing here
 * says where the example is.
 */
function headlessArgv(args: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    const inline = equals > 0 ? arg.slice(equals + 1) : undefined;
    if (flag !== '--example' && flag !== '--fake-api') {
      out.push(arg);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`${flag} expects a value`);
    if (flag === '--fake-api' && !existsSync(resolve(cwd, value))) {
      const hint = shippedExampleHint(value);
      if (hint) throw new UsageError(`--fake-api: ${value}: no such file${hint}`);
    }
    out.push('--fake-api', flag === '--example' ? examplePath('agent-sdk', value) : value);
  }
  return out;
}

export async function main(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  const io = redactingIo(rawIo);
  const debug = argv.includes('--debug');
  const args = argv.filter((arg) => arg !== '--debug');
  const [name, ...rest] = args;
  // Claude Code's headless command line (the Agent SDK, `claude -p` pipelines): before the subcommands.
  if (isHeadlessInvocation(args)) {
    let headless: string[];
    try {
      headless = headlessArgv(args, io.cwd);
      // Help only when -h/--help is an option, as claude reads it: `-p -- -h` is the prompt "-h".
      if (parseHeadlessArgs(headless).help) {
        rawIo.stdout.write(HEADLESS_HELP);
        return 0;
      }
    } catch (error) {
      io.stderr.write(`turnloop: ${messageOf(error)}\n`);
      return EXIT_BAD_INPUT;
    }
    const { runHeadlessCli } = await import('../agent-sdk/headless-main.ts');
    return runHeadlessCli(headless, { ...io, stdin: rawIo.stdin ?? process.stdin });
  }
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
