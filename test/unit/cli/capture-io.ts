/**
 * A `CliIo` that captures what a command writes, for in-process CLI tests (`main(argv, io)`).
 */
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';

export const REPO_ROOT = new URL('../../../', import.meta.url).pathname;

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function captureIo(options: { env?: Record<string, string | undefined>; cwd?: string; tty?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => err.push(text) },
    env: options.env ?? {},
    cwd: options.cwd ?? REPO_ROOT,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** Runs `turnloop <argv>` in-process. */
export async function runCli(argv: string[], options: Parameters<typeof captureIo>[0] = {}): Promise<CapturedRun> {
  const captured = captureIo(options);
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}
