/**
 * What a CLI command gets from the outside: argv, output streams, environment and cwd, injectable for tests.
 * Exit codes: 0 ok, 1 the run ended in a failure terminal (with `--strict`), 2 bad input.
 */
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
export class UsageError extends Error {
  readonly code = 'USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliCommand {
  name: string;
  /** The full `--help` text. */
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
