/**
 * What a CLI command gets from the outside: argv, output streams, environment and cwd, injectable for tests.
 * Exit codes: 0 ok, 1 the run ended in a failure terminal (with `--strict`), 2 bad input.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE_TERMINAL = 1;
export const EXIT_BAD_INPUT = 2;

/** Bad input: printed as one clear message (no stack trace unless --debug), exit code 2. */
export class UsageError extends TurnloopError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

export interface CliCommand {
  name: string;
  /** Stdout is markup or code (HTML, exports) that the command keeps free of secrets itself: not redacted line-wise. */
  rawStdout?: boolean;
  /** The full `--help` text. */
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * A closed stdout (`turnloop … | head`) makes the next write fail with EPIPE, asynchronously, as an 'error' event
 * that would otherwise crash the process with a stack trace: end with one line on stderr and exit code 2 instead.
 */
export function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.stderr.write('turnloop: stdout was closed before the output was written (EPIPE)\n');
    process.exit(EXIT_BAD_INPUT);
  });
}
