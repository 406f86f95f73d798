/**
 * `turnloop run "<prompt>"`: a live run against the real Anthropic API (ANTHROPIC_API_KEY), with the built-in
 * file tools confined to --cwd and a permission prompt for every tool call that is not read-only. The run is
 * recorded as a session log (replay, resume and viz read it) unless --no-record.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { query } from '../../api/query.ts';
import { createAnthropicModelCaller, type ModelRetryNotice } from '../../model/anthropic-model-caller.ts';
import type { ApiErrorInfo, AssistantMessage, QueryItem } from '../../messages/types.ts';
import type { Terminal } from '../../data/outcomes.ts';
import { isFailureTerminal } from '../../scenario/check-outcome.ts';
import { createFileTools } from '../../tools/builtin/index.ts';
import { EXIT_FAILURE_TERMINAL, EXIT_INTERRUPTED, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { createLiveProgress } from '../demo/progress.ts';
import { terminalDetail } from '../render/transcript.ts';
import { styleFor } from '../render/style.ts';
import { createPermissionPrompt } from '../run/permission-prompt.ts';
import { expandInspectArgs, INSPECT_FLAGS, INSPECT_HELP, startCliInspector } from '../inspect-flag.ts';
import { mcpInstructions, startIntegrations } from '../run/integrations.ts';
import { makeOutputDir, prepareRecordPath, writeFailureReason } from '../write-output.ts';
import { createTaskTool, TASK_TOOL_NAME } from '../run/task-agent.ts';
import { turnloopCommand } from '../invocation.ts';
import { nonNegativeInteger, parseFlags, positiveAmount, positiveInteger } from './parse-flags.ts';
import { DEFAULT_CONFIG } from '../../config/config.ts';
import { checkBaseUrl, InvalidBaseUrlError } from '../../model/base-url.ts';

/**
 * Retries `run` gives a refused connection or a host that does not resolve when --max-retries is not given
 * (Extension `cliUnreachableRetries`): about 1.5 s of backoff instead of the original's ~2.7 min.
 */
export const CLI_UNREACHABLE_RETRIES = 2;

const HELP = `Usage: turnloop run "<prompt>" [--cwd DIR] [--model M] [--max-turns N] [--yes] [--max-budget-usd USD] [--json]
                    [--record FILE | --no-record] [--no-task] [--mcp-config FILE] [--otel] [--base-url URL]
                    [--max-retries N]

A live agent loop against the real Anthropic API. The model gets the built-in tools Read, Edit, Glob and
Grep, confined to DIR, and Task, which starts a subagent with those file tools (as Claude Code's Task tool).
Every call that is not read-only (Edit, a subagent's included) is asked about first, unless --yes. Ctrl-C
aborts the run (a second Ctrl-C exits at once). The run is recorded as a session log, by default
.turnloop/sessions/<id>.jsonl under the current directory; the path is printed, and turnloop replay, resume
and viz read it.

Options:
  --cwd DIR        the directory the tools may see (default: the current directory)
  --model M        the model (default: the engine config's default model)
  --max-turns N    stop after N model turns (max_turns)
  --max-budget-usd USD
                   stop before a model call that could take the spend past USD (max_budget_usd;
                   limits.maxCostUsd, docs/bounds.md)
  --yes            allow every tool call without asking
  --json           one JSON object per line on stdout: an init line, every message, then a result line
                   (like claude -p --output-format stream-json); notes go to stderr
  --record FILE    write the session log to FILE instead (a file that holds data is refused)
  --force          let --record overwrite a file that holds data
  --no-record      do not write a session log
  --no-task        leave out the Task tool (no subagents); subagent runs are recorded beside the log,
                   in <log>.agents/<tool_use id>.jsonl (turnloop replay and viz read them)
  --mcp-config FILE  add the tools of the MCP servers in FILE (Claude Code's .mcp.json shape:
                   {"mcpServers": {name: {command, args, env} | {type: "http", url, headers}}}),
                   asked about like Edit unless the server marks them read-only
  --base-url URL   the Messages API endpoint (default: ANTHROPIC_BASE_URL, else https://api.anthropic.com);
                   checked before any request: an absolute http:// or https:// URL with a host
  --max-retries N  retries of a failed request (default ${DEFAULT_CONFIG.retry.maxRetries}, with backoff from ${DEFAULT_CONFIG.retry.baseDelayMs / 1000} s doubling up to
                   ${DEFAULT_CONFIG.retry.maxDelayMs / 1000} s: Claude Code's schedule, which rides out an overloaded or restarting API).
                   A refused connection or a host that does not resolve is retried only
                   ${CLI_UNREACHABLE_RETRIES} times unless this flag is given: a wrong URL fails in seconds, not minutes
  --otel           export OpenTelemetry spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT
                   (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; default http://localhost:4318)
${INSPECT_HELP}

Environment:
  ANTHROPIC_API_KEY    the API key (required)
  ANTHROPIC_BASE_URL   another endpoint speaking the Messages API (a proxy, a gateway, a local fake)
  NO_COLOR             plain output even on a terminal

Failed requests are retried with backoff (one line per retry: what failed, where and why when no HTTP
answer came, attempt k of n, the wait); answers that retrying cannot fix (401, 403, 400) end the run at once.

Exit codes: 0 completed, 1 the run ended in a failure terminal, on an API error or with a session log that
could not be written, 2 bad input, 130 interrupted (Ctrl-C).
No key? Run 'turnloop demo' to watch the loop work offline.`;

export const MISSING_KEY_MESSAGE =
  'turnloop run talks to the real Anthropic API and needs an API key, but ANTHROPIC_API_KEY is not set. ' +
  'Set it (for example: export ANTHROPIC_API_KEY=sk-ant-...) and try again. To see the loop at work without ' +
  "a key or network, run 'turnloop demo': it fixes a bug in a sample project with a scripted model and the " +
  'real file tools, in a few seconds.';

/** Where live runs are recorded, under the directory turnloop runs in. */
export const SESSIONS_DIR = '.turnloop/sessions';

function systemPrompt(root: string): string {
  return [
    'You are a coding agent. You work in the project at the root of the tools below, and only there.',
    `The project root is ${root}; paths you pass to tools are relative to it.`,
    'Find what you need with Glob and Grep, read before you edit, keep changes small, and finish with a short',
    'summary of what you changed and why.',
  ].join('\n');
}

/** A session id that sorts by start time: `2026-12-01T09-20-11Z-3fa9c1`. */
function newSessionId(): string {
  return `${new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** The API error the run ended on: the Terminal's (Extension `terminalApiError`), else its last message's. */
function finalApiError(terminal: Terminal, lastAssistant: AssistantMessage | undefined): ApiErrorInfo | undefined {
  return ('apiError' in terminal ? terminal.apiError : undefined) ?? lastAssistant?.apiError;
}

/** Whether the run failed: a failure terminal (an ending on an API error is one), or a last message that is one. */
export function runFailed(terminal: Terminal, lastAssistant: AssistantMessage | undefined): boolean {
  return isFailureTerminal(terminal) || finalApiError(terminal, lastAssistant) !== undefined;
}

export function retryLine(retry: ModelRetryNotice): string {
  const message = retry.error.cause === undefined ? retry.error.message : `${retry.error.message.replace(/\.$/, '')} (${retry.error.url}: ${retry.error.cause})`;
  const what = retry.error.status === undefined ? message : `${retry.error.status} ${message}`;
  return `request failed: ${what.replace(/\.$/, '')}; retry ${retry.attempt} of ${retry.maxRetries} in ${(retry.delayMs / 1000).toFixed(1)} s`;
}

/** --base-url, else ANTHROPIC_BASE_URL, refused with exit 2 unless it is an http(s) URL with a host. */
function checkedBaseUrl(flag: string | undefined, env: string | undefined): string | undefined {
  const [value, source] = flag !== undefined ? [flag, '--base-url'] : [env, 'ANTHROPIC_BASE_URL'];
  if (value === undefined || (value === '' && flag === undefined)) return undefined;
  try {
    return checkBaseUrl(value, source);
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) throw new UsageError(error.message);
    throw error;
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('run', expandInspectArgs(args), {
    ...INSPECT_FLAGS,
    cwd: { type: 'string' },
    model: { type: 'string' },
    'max-turns': { type: 'string' },
    'max-budget-usd': { type: 'string' },
    yes: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    record: { type: 'string' },
    'no-record': { type: 'boolean', default: false },
    'no-task': { type: 'boolean', default: false },
    'mcp-config': { type: 'string' },
    otel: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    'base-url': { type: 'string' },
    'max-retries': { type: 'string' },
  });
  if (positionals.length !== 1 || positionals[0].trim() === '') throw new UsageError('expected one prompt, in quotes (see turnloop run --help)');
  if (values.record !== undefined && values['no-record']) throw new UsageError('--record and --no-record contradict each other');
  const maxTurns = positiveInteger('max-turns', values['max-turns']);
  const maxCostUsd = positiveAmount('max-budget-usd', values['max-budget-usd']);
  const maxRetries = nonNegativeInteger('max-retries', values['max-retries']);
  const baseURL = checkedBaseUrl(values['base-url'], io.env.ANTHROPIC_BASE_URL);
  const root = resolve(io.cwd, values.cwd ?? '.');
  if (!existsSync(root)) throw new UsageError(`--cwd: no such directory: ${root}`);
  if (!statSync(root).isDirectory()) throw new UsageError(`--cwd: ${root} is a file, not a directory; expected the project directory the tools may see`);
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new UsageError(MISSING_KEY_MESSAGE);

  const json = values.json === true;
  const style = styleFor(io);
  const progress = createLiveProgress(io, style, { startedAt: Date.now() });
  const note = (text: string) => (json ? io.stderr.write(`turnloop run: ${text}\n`) : progress.note(style.yellow(text)));
  const sessionId = newSessionId();
  const recordPath = values.record ?? `${SESSIONS_DIR}/${sessionId}.jsonl`;
  if (!values['no-record']) makeOutputDir(dirname(recordPath), io.cwd);
  // Checked before anything starts: a path that cannot hold the log (or holds data) is exit 2, not a run unrecorded.
  const logPath = values['no-record'] ? undefined : prepareRecordPath(recordPath, io.cwd, { force: values.force === true });
  const shownLog = logPath && (relative(io.cwd, logPath).startsWith('..') ? logPath : relative(io.cwd, logPath));
  // A log that cannot be written is said at once, and the run's exit status says so (the run itself goes on).
  let recordFailed = false;
  const onRecordError = (error: Error) => {
    recordFailed = true;
    note(`cannot write the session log ${shownLog}: ${writeFailureReason(error)}; recording stopped`);
  };
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort('user');
    // Ctrl-C ends the run within a second: should anything still hold the loop after the abort, exit anyway.
    setTimeout(() => process.exit(EXIT_INTERRUPTED), 1_000).unref();
  };
  process.on('SIGINT', onInterrupt);
  const { mcp, tracing, close } = await startIntegrations({ mcpConfig: values['mcp-config'], otel: values.otel === true }, io);
  const live = await startCliInspector(values, io, 'run').catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const startedAt = Date.now();
  const fileTools = createFileTools({ root });
  const builtinTools = values['no-task'] ? fileTools : [...fileTools, createTaskTool(root, fileTools)];
  const tools = mcp ? [...builtinTools, ...mcp.tools] : builtinTools;
  const model = values.model;
  if (json) io.stdout.write(`${JSON.stringify({ type: 'system', subtype: 'init', session_id: sessionId, cwd: root, tools: tools.map((t) => t.name), ...(model ? { model } : {}), session_log: logPath ?? null })}\n`);
  else if (shownLog) io.stdout.write(`${style.dim(`session log: ${shownLog}`)}\n`);
  try {
    const generator = query({
      prompt: positionals[0],
      systemPrompt: [systemPrompt(root), ...mcpInstructions(mcp)],
      // A function: an MCP server's tools/list_changed takes effect from the next turn on.
      tools: mcp ? () => [...builtinTools, ...mcp.tools] : builtinTools,
      ...(tracing ? { telemetry: { tracer: tracing.tracer } } : {}),
      canUseTool: createPermissionPrompt({
        yes: values.yes === true,
        askedInside: [TASK_TOOL_NAME],
        beforeAsk: () => progress.stop(),
        ...(json ? { streams: { input: process.stdin, output: process.stderr } } : {}),
      }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      querySource: 'repl_main_thread',
      signal: controller.signal,
      config: {
        sessionId,
        ...(model ? { model } : {}),
        ...(maxRetries === undefined ? {} : { retry: { maxRetries } }),
        ...(maxCostUsd === undefined ? {} : { limits: { maxCostUsd } }),
      },
      deps: {
        callModel: createAnthropicModelCaller({
          apiKey,
          ...(baseURL ? { baseURL } : {}),
          maxUnreachableRetries: maxRetries ?? CLI_UNREACHABLE_RETRIES,
          maxAuthRetries: maxRetries ?? 0,
          onRetry: (retry) => note(retryLine(retry)),
        }),
      },
      ...(json ? {} : { onStep: progress.onStep }),
      ...(logPath ? { record: { target: logPath, onError: onRecordError } } : {}),
      ...(live ? { observers: live.observers, forkObservers: live.forkObservers } : {}),
    });
    let lastAssistant: AssistantMessage | undefined;
    let turns = 0;
    const onItem = (item: QueryItem) => {
      if (item.type === 'assistant') lastAssistant = item;
      if (item.type === 'request_start') turns += 1;
      if (!json) return progress.onItem(item);
      if (item.type !== 'stream_event' && item.type !== 'request_start') io.stdout.write(`${JSON.stringify(item)}\n`);
    };
    let next = await generator.next();
    while (!next.done) {
      onItem(next.value);
      next = await generator.next();
    }
    progress.stop();
    const terminal = next.value;
    const failed = runFailed(terminal, lastAssistant);
    if (json) {
      const result = { type: 'result', subtype: failed ? 'error' : 'success', is_error: failed, terminal, num_turns: turns, duration_ms: Date.now() - startedAt, session_id: sessionId, session_log: logPath ?? null };
      io.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      const apiError = finalApiError(terminal, lastAssistant);
      const ending = apiError ? ` (ended on an API error: ${apiError.text})` : '';
      io.stdout.write(`${style.bold((failed ? style.red : style.green)(`terminal: ${terminal.reason}${terminalDetail(terminal)}${ending}`))}\n`);
      if (shownLog) io.stdout.write(`${style.dim(`session log: ${shownLog} (${turnloopCommand(io.env)} replay ${shownLog})`)}\n`);
    }
    // Interrupted: the log replays and resumes, but the run did not finish, and a script must be able to tell.
    if (controller.signal.aborted) return EXIT_INTERRUPTED;
    return failed || recordFailed ? EXIT_FAILURE_TERMINAL : EXIT_OK;
  } finally {
    progress.stop();
    process.off('SIGINT', onInterrupt);
    await close();
    await live?.finish();
  }
}

export const runCommand: CliCommand = {
  name: 'run',
  help: HELP,
  run,
};
