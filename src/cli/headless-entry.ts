/**
 * The headless mode's entry (`turnloop -p`, the Agent SDK's executable): turnloop's own flags (`--example`,
 * `--fake-api` hints), `-p --help`, then the headless runner. One module with its imports, so `npm run build` can
 * bundle it into the one file bin/ loads for a headless command line (scripts/build.mjs): a start-up without the
 * module loader's per-file cost. `main()` loads this same module for the same command line.
 */
// First: zod's setting applies to the schemas modules build as they load (zod-jitless.ts).
import './zod-jitless.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseHeadlessArgs } from '../agent-sdk/headless-args.ts';
import { runHeadlessCli } from '../agent-sdk/headless-main.ts';
import { messageOf } from '../errors/message-of.ts';
import { EXIT_BAD_INPUT, processIo, UsageError, type CliIo } from './cli-io.ts';
import { examplePath, shippedExampleHint } from './examples.ts';
import { HEADLESS_HELP } from './headless-help.ts';
import { redactingIo } from './redacting-io.ts';
import { packageVersion } from './version.ts';

export { exitQuietlyOnClosedStdout } from './cli-io.ts';

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

/** Runs a headless command line (`isHeadlessInvocation(argv)`); the exit code. */
export async function headlessMain(argv: string[], rawIo: CliIo = processIo()): Promise<number> {
  const io = redactingIo(rawIo);
  const args = argv.filter((arg) => arg !== '--debug');
  let headless: string[];
  try {
    headless = headlessArgv(args, io.cwd);
    // Help only when -h/--help is an option, as claude reads it: `-p -- -h` is the prompt "-h".
    const parsed = parseHeadlessArgs(headless);
    if (parsed.help) {
      rawIo.stdout.write(HEADLESS_HELP);
      return 0;
    }
    if (parsed.version) {
      rawIo.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
  } catch (error) {
    io.stderr.write(`turnloop: ${messageOf(error)}\n`);
    return EXIT_BAD_INPUT;
  }
  const stdin = rawIo.stdin ?? process.stdin;
  try {
    return await runHeadlessCli(headless, { ...io, stdin });
  } finally {
    // A run that ended on an error the session could not answer must still end the process: the Agent SDK keeps
    // stdin open, and a stdin still being read would keep the process (and so the program waiting on it) alive.
    (stdin as { destroy?: () => void }).destroy?.();
  }
}
