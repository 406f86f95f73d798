/**
 * `turnloop viz [<session.jsonl>] [--out view.html] [--inspect]`: one self-contained HTML page with the loop
 * statechart and, given a session log, a timeline to step through (see `src/viz/html.ts`).
 */
import { resolve } from 'node:path';
import { replay } from '../../replay/replay.ts';
import { renderViewerHtml, viewerData } from '../../viz/html.ts';
import { loadInspector, replayIntoInspector } from '../../viz/inspect.ts';
import { parseSessionLog, type SessionForView } from '../../viz/session.ts';
import { SessionLogParseError } from '../../replay/errors.ts';
import { withChildRuns } from '../../viz/session-tree.ts';
import { createRedactor, secretValuesFromEnv } from '../../replay/redact.ts';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { didYouMean } from '../../errors/did-you-mean.ts';
import { readInputText, shownPath } from '../read-input.ts';
import { writeOutputFile } from '../write-output.ts';
import { notATranscript } from '../../claude/recognise-transcript.ts';
import { claudeSessionForView } from '../../viz/claude-session.ts';

const HELP = `Usage: turnloop viz [<session.jsonl> | <claude-transcript.jsonl>] [--out view.html] [--inspect]

Writes ONE self-contained HTML file (no network) that draws the loop statechart. With a session log it adds a
timeline: step through the events with Prev/Next, the arrow keys or the scrubber; the active state and the
transitions just taken are highlighted; the side panel shows the messages emitted so far, the pending effects
and the counters (turn, max-output recoveries, autocompact failures, tokens against the thresholds).
Subagent runs recorded beside the log (run.agents/<toolUseId>.jsonl, recursively) are embedded too: each is a
collapsible group under the step that ran its tool call, and selecting one of its steps shows that run.

A Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl; turnloop sessions lists them) is
recognised: every loop run of the session is re-driven through the engine, the recording answering its model
and tool calls (as check-claude does), and drawn on the one page: the first run, each later prompt's run after
it, each subagent under the Task call that ran it. A run where the engine and the recording disagree is marked ✗
with what differs.

Options:
  --out FILE   where to write the page (default: stdout, unless stdout is a terminal)
  --inspect    also replay the session into Stately's live inspector (needs the optional package
               @statelyai/inspect and network; see docs/statechart.md#live-inspection)
`;

export interface VizArgs {
  session: string | null;
  out: string | null;
  inspect: boolean;
}

export function parseVizArgs(args: string[]): VizArgs {
  const parsed: VizArgs = { session: null, out: null, inspect: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--inspect') parsed.inspect = true;
    else if (arg === '--out' || arg === '-o') {
      const value = args[++i];
      if (!value) throw new UsageError('--out needs a file name');
      parsed.out = value;
    } else if (arg.startsWith('--out=')) parsed.out = arg.slice('--out='.length);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'.${didYouMean(arg.replace(/^-+/, ''), ['out', 'inspect'], (n) => `--${n}`)} (see turnloop viz --help)`);
    else if (parsed.session === null) parsed.session = arg;
    else throw new UsageError(`unexpected argument '${arg}': give at most one session log`);
  }
  if (parsed.inspect && parsed.session === null) throw new UsageError('--inspect needs a session log to replay');
  return parsed;
}

function readLog(path: string, io: CliIo): SessionForView {
  const text = readInputText(path, io.cwd, { expected: 'a session log (JSON Lines)', format: 'jsonl' });
  let session: SessionForView;
  try {
    session = parseSessionLog(text, path);
  } catch (error) {
    // The parser's error already names the file and the line (`run.jsonl:2: expected …`).
    throw new UsageError(error instanceof SessionLogParseError ? error.message : `${path}: ${(error as Error).message}`);
  }
  if (session.recorded) {
    // The page shows the states step() re-derives; say so when they are not the ones that were recorded.
    try {
      replay(session.recorded);
    } catch (error) {
      io.stderr.write(`warning: ${path} does not replay as recorded (${(error as Error).message}); the page shows the re-derived run\n`);
    }
  }
  return session;
}

/** A Claude Code transcript, every run re-driven (`claude-session.ts`); a note on stderr says what was drawn. */
function readTranscriptSession(path: string, io: CliIo): SessionForView {
  const view = claudeSessionForView(resolve(io.cwd, path));
  if (!view.session) throw new UsageError(`${path}: a Claude Code transcript with no loop run (no model reply after a prompt): nothing to draw`);
  const differ = view.differing === 0 ? 'the engine reproduces every one' : `${view.differing} where the engine and the recording disagree (marked ✗)`;
  io.stderr.write(`${path}: Claude Code transcript, ${view.runs} run${view.runs === 1 ? '' : 's'} re-driven through the engine; ${differ}\n`);
  for (const line of view.notShown) io.stderr.write(`  not drawn: ${line}\n`);
  return createRedactor({ secretValues: secretValuesFromEnv(io.env) })(view.session);
}

function readSession(path: string, io: CliIo): SessionForView {
  // Subagent logs are read beside the log (run.agents/<toolUseId>.jsonl), with the same checks.
  const session = withChildRuns(readLog(path, io), resolve(io.cwd, path), (file) => readLog(shownPath(file, io.cwd), io));
  // A log recorded elsewhere may hold secrets a page must not show; masks keep lengths, so the view is the same run.
  return createRedactor({ secretValues: secretValuesFromEnv(io.env) })(session);
}

const countChildren = (session: SessionForView): number => (session.children ?? []).reduce((n, c) => n + 1 + countChildren(c.session), 0);

export const vizCommand: CliCommand = {
  name: 'viz',
  help: HELP,
  rawStdout: true,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseVizArgs(args);
    if (parsed.out === null && io.stdout.isTTY) throw new UsageError('refusing to write HTML to a terminal: give --out view.html');
    const text = parsed.session === null ? null : readInputText(parsed.session, io.cwd, { expected: 'a session log or a Claude Code transcript (JSON Lines)', format: 'jsonl' });
    const transcript = text !== null && notATranscript(text) === undefined;
    const session = parsed.session === null ? null : transcript ? readTranscriptSession(parsed.session, io) : readSession(parsed.session, io);
    const source = parsed.session === null ? undefined : ({ file: shownPath(parsed.session, io.cwd), kind: transcript ? 'claude-transcript' : 'session-log' } as const);
    // Fail before writing anything when the optional inspector package is missing.
    const inspector = parsed.inspect ? await loadInspector() : null;
    const html = renderViewerHtml(viewerData(session, undefined, source));
    if (parsed.out === null) io.stdout.write(html);
    else {
      const path = writeOutputFile(parsed.out, io.cwd, html);
      const children = session ? countChildren(session) : 0;
      const steps = session ? `, ${session.events.length} events${children > 0 ? `, ${children} ${transcript ? 'more' : 'subagent'} run${children === 1 ? '' : 's'}` : ''}` : '';
      io.stderr.write(`wrote ${path} (${Math.round(html.length / 1024)} KB${steps})\n`);
    }
    if (inspector && session) {
      const sent = replayIntoInspector(session, inspector);
      io.stderr.write(`replayed ${sent} events into the Stately inspector\n`);
    }
    return EXIT_OK;
  },
};
