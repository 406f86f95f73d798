/**
 * The shell form `turnloop -p "<prompt>"`, as `claude -p` is used in pipelines: one turn, then exit.
 * `--output-format text` prints the answer, or the API error a turn ended on (the other error results' errors go to
 * stderr); `json` prints the one `result`
 * object; `stream-json` prints every message as a line (`system`/`init`, `assistant`, `user`, ..., `result`).
 * A background subagent's notification is a turn of its own after the first, as with `claude -p`: text prints each
 * turn's answer (a blank line between), json the last result, stream-json every message. Exit 1 after an error
 * result (the last).
 */
import type { OutputFormat } from './headless-args.ts';
import type { HeadlessSession } from './headless-session.ts';
import type { TurnOutcome } from './session-settings.ts';
import type { SessionTasks } from './session-tasks.ts';

type Io = { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };

export async function runPrintMode(session: HeadlessSession, prompt: string, format: OutputFormat, io: Io, tasks?: Pick<SessionTasks, 'running' | 'takeNotice' | 'onNotice'>): Promise<number> {
  session.startPrompt();
  let outcome = await session.runTurn(prompt);
  if (format !== 'json') printResult(outcome, format, io, false);
  for (let notice = await nextNotice(tasks); notice; notice = await nextNotice(tasks)) {
    outcome = await session.runTurn(notice.content, { origin: { kind: 'task-notification', producer: 'session-task', runId: notice.runId } });
    if (format !== 'json') printResult(outcome, format, io, true);
  }
  if (format === 'json') printResult(outcome, format, io, false);
  return outcome.isError ? 1 : 0;
}

/** The next finished background subagent's notification, waiting while one still runs; undefined when none is left. */
async function nextNotice(tasks: Pick<SessionTasks, 'running' | 'takeNotice' | 'onNotice'> | undefined) {
  if (!tasks) return undefined;
  for (;;) {
    const notice = tasks.takeNotice();
    if (notice || tasks.running === 0) return notice;
    await new Promise<void>((resolve) => {
      const stop = tasks.onNotice(() => {
        stop();
        resolve();
      });
    });
  }
}

function printResult({ result }: TurnOutcome, format: OutputFormat, io: Io, later: boolean): void {
  if (format === 'json' || format === 'stream-json') {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (typeof result.result === 'string' && result.subtype === 'success') {
    // An API-error ending too: the real executable prints its text on stdout (and exits 1).
    const text = result.result.endsWith('\n') ? result.result : `${result.result}\n`;
    io.stdout.write(later ? `\n${text}` : text);
  } else {
    const errors = Array.isArray(result.errors) ? (result.errors as unknown[]).map(String) : [String(result.result ?? 'the run failed')];
    io.stderr.write(`turnloop: ${errors.join('; ')} (${String(result.terminal_reason)})\n`);
  }
}
