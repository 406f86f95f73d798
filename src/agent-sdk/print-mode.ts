/**
 * The shell form `turnloop -p "<prompt>"`, as `claude -p` is used in pipelines: one turn, then exit.
 * `--output-format text` prints the answer, or the API error a turn ended on (the other error results' errors go to
 * stderr); `json` prints the one `result`
 * object; `stream-json` prints every message as a line (`system`/`init`, `assistant`, `user`, ..., `result`).
 * Exit 1 after an error result.
 */
import type { OutputFormat } from './headless-args.ts';
import type { HeadlessSession } from './headless-session.ts';

export async function runPrintMode(
  session: HeadlessSession,
  prompt: string,
  format: OutputFormat,
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
): Promise<number> {
  const { result, isError } = await session.runTurn(prompt);
  if (format === 'json' || format === 'stream-json') {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (typeof result.result === 'string' && result.subtype === 'success') {
    // An API-error ending too: the real executable prints its text on stdout (and exits 1).
    io.stdout.write(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
  } else {
    const errors = Array.isArray(result.errors) ? (result.errors as unknown[]).map(String) : [String(result.result ?? 'the run failed')];
    io.stderr.write(`turnloop: ${errors.join('; ')} (${String(result.terminal_reason)})\n`);
  }
  return isError ? 1 : 0;
}
