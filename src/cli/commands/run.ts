/**
 * `turnloop run "<prompt>"`: a live run against the real Anthropic API (ANTHROPIC_API_KEY), with the built-in
 * file tools confined to --cwd and a permission prompt for every tool call that is not read-only.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createAnthropicModelCaller } from '../../effects/model/index.ts';
import { query } from '../../api/query.ts';
import { createFileTools } from '../../tools/index.ts';
import { EXIT_FAILURE_TERMINAL, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { createLiveProgress } from '../demo/progress.ts';
import { styleFor } from '../render/style.ts';
import { createPermissionPrompt } from '../run/permission-prompt.ts';
import { mcpInstructions, startIntegrations } from '../run/integrations.ts';
import { isFailureTerminal } from '../../scenario/check-outcome.ts';
import { terminalDetail } from '../render/transcript.ts';
import { expandInspectArgs, INSPECT_FLAGS, INSPECT_HELP, startCliInspector } from '../inspect-flag.ts';
import { parseFlags, positiveInteger } from './parse-flags.ts';

const HELP = `Usage: turnloop run "<prompt>" [--cwd DIR] [--model M] [--max-turns N] [--yes] [--strict]
                    [--mcp-config FILE] [--otel]

A live agent loop against the real Anthropic API (needs ANTHROPIC_API_KEY). The model gets the built-in
tools Read, Edit, Glob and Grep, confined to DIR; every call that is not read-only (Edit) is asked about
first, unless --yes. Ctrl-C aborts the run (a second Ctrl-C exits at once).

Options:
  --cwd DIR        the directory the tools may see (default: the current directory)
  --model M        the model (default: the engine config's default model)
  --max-turns N    stop after N model turns (max_turns)
  --yes            allow every tool call without asking
  --strict         exit 1 when the run ends in a failure terminal
  --mcp-config FILE  add the tools of the MCP servers in FILE (Claude Code's .mcp.json shape:
                   {"mcpServers": {name: {command, args, env} | {type: "http", url, headers}}}),
                   asked about like Edit unless the server marks them read-only
  --otel           export OpenTelemetry spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT
                   (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; default http://localhost:4318)
${INSPECT_HELP}

No key? Run 'turnloop demo' to watch the loop work offline.`;

export const MISSING_KEY_MESSAGE =
  'turnloop run talks to the real Anthropic API and needs an API key, but ANTHROPIC_API_KEY is not set. ' +
  'Set it (for example: export ANTHROPIC_API_KEY=sk-ant-...) and try again. To see the loop at work without ' +
  "a key or network, run 'turnloop demo': it fixes a bug in a sample project with a scripted model and the " +
  'real file tools, in a few seconds.';

function systemPrompt(root: string): string {
  return [
    'You are a coding agent. You work in the project at the root of the tools below, and only there.',
    `The project root is ${root}; paths you pass to tools are relative to it.`,
    'Find what you need with Glob and Grep, read before you edit, keep changes small, and finish with a short',
    'summary of what you changed and why.',
  ].join('\n');
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('run', expandInspectArgs(args), {
    ...INSPECT_FLAGS,
    cwd: { type: 'string' },
    model: { type: 'string' },
    'max-turns': { type: 'string' },
    yes: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'mcp-config': { type: 'string' },
    otel: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1 || positionals[0].trim() === '') throw new UsageError('expected one prompt, in quotes (see turnloop run --help)');
  const maxTurns = positiveInteger('max-turns', values['max-turns']);
  const root = resolve(io.cwd, values.cwd ?? '.');
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--cwd: no such directory: ${root}`);
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new UsageError(MISSING_KEY_MESSAGE);

  const { mcp, tracing, close } = await startIntegrations({ mcpConfig: values['mcp-config'], otel: values.otel === true }, io);
  const fileTools = createFileTools({ root });
  const style = styleFor(io);
  const progress = createLiveProgress(io, style);
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort('user');
    // Ctrl-C ends the run within a second: should anything still hold the loop after the abort, exit anyway.
    setTimeout(() => process.exit(130), 1_000).unref();
  };
  process.on('SIGINT', onInterrupt);
  const live = await startCliInspector(values, io, 'run').catch(async (error: unknown) => {
    await close();
    throw error;
  });
  try {
    const generator = query({
      prompt: positionals[0],
      systemPrompt: [systemPrompt(root), ...mcpInstructions(mcp)],
      // A function: an MCP server's tools/list_changed takes effect from the next turn on.
      tools: mcp ? () => [...fileTools, ...mcp.tools] : fileTools,
      ...(tracing ? { telemetry: { tracer: tracing.tracer } } : {}),
      canUseTool: createPermissionPrompt({ yes: values.yes === true, beforeAsk: () => progress.stop() }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      querySource: 'repl_main_thread',
      signal: controller.signal,
      config: values.model ? { model: values.model } : {},
      deps: { callModel: createAnthropicModelCaller({ apiKey, ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}) }) },
      onStep: progress.onStep,
      ...(live ? { observers: live.observers, forkObservers: live.forkObservers } : {}),
    });
    let next = await generator.next();
    while (!next.done) {
      progress.onItem(next.value);
      next = await generator.next();
    }
    progress.stop();
    const terminal = next.value;
    const paint = isFailureTerminal(terminal) ? style.red : style.green;
    io.stdout.write(`${style.bold(paint(`terminal: ${terminal.reason}${terminalDetail(terminal)}`))}\n`);
    return values.strict && isFailureTerminal(terminal) ? EXIT_FAILURE_TERMINAL : EXIT_OK;
  } finally {
    progress.stop();
    process.off('SIGINT', onInterrupt);
    await close();
    await live?.finish();
  }
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'A live run against the Anthropic API (ANTHROPIC_API_KEY) with file tools in --cwd',
  help: HELP,
  run,
};
