/**
 * `turnloop resume <log>`: continues a crashed or paused run from the end of its session log, with live effects
 * (the real Anthropic API via ANTHROPIC_API_KEY, or `--fake-api <scenario.json>`: the fake API serves the
 * scenario's `model` replies and its `tools` results answer tool calls). The resumed steps are appended to the log.
 * Exit codes: 0 the run reached a terminal, 1 it failed, 2 bad input.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readInputText, shownPath } from '../read-input.ts';
import { parseSessionLogText } from '../../replay/parse-session-log.ts';
import { parseFlags } from './parse-flags.ts';
import { createAnthropicModelCaller } from '../../model/index.ts';
import type { ToolRuntime } from '../../data/tool-runtime.ts';
import { createToolRuntime } from '../../tools/index.ts';
import { createFileTools } from '../../tools/builtin/index.ts';
import { createPermissionPrompt } from '../run/permission-prompt.ts';
import { z } from 'zod';
import { formatPath, MAX_SCRIPTED_ANSWERS, parseFakeScript, startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../fake-api/index.ts';
import type { QueryItem } from '../../messages/types.ts';
import { resumeFromLog } from '../../replay/resume.ts';
import { expandInspectArgs, INSPECT_FLAGS, INSPECT_HELP, startCliInspector } from '../inspect-flag.ts';
import { scriptedToolRuntime, type ScriptedTool } from '../../replay/scripted-deps.ts';
import { messageOf } from '../../errors/message-of.ts';
import { continueScriptAfterLog } from './resume-script.ts';

const HELP = `Usage: turnloop resume <log.jsonl> [--cwd DIR [--yes]] [--fake-api <scenario.json> [--script-from-start]] [--allow-version-skew] [--quiet]

Replays the log (verifying it), re-executes what its last state was waiting for, and runs on to a terminal,
appending every new step to the same log. Uses the Anthropic API (ANTHROPIC_API_KEY) unless --fake-api is given:
then the scenario's "model" replies are served by the loopback fake API and its "tools" results answer tools,
continuing from where the log ended: the replies and tool results the log already holds are skipped, so the
scenario a log was recorded from (simulate --record) goes on where it stopped. A scenario that does not begin with
the log's replies is refused (exit 2), naming the first that differs; --script-from-start serves a script that
holds only what comes after the log, from its first reply.
With --cwd, the live run gets the built-in file tools (Read, Edit, Glob, Grep) confined to DIR, asking before any
call that is not read-only unless --yes; without it, tool calls get error results.

Options:
  --cwd DIR              give the live run the file tools, confined to DIR (default: no tools; tool calls
                         get error results)
  --yes                  with --cwd: allow every tool call without asking
  --fake-api FILE        serve the model from the scenario FILE's "model" replies on the loopback fake API,
                         and answer tools from its "tools" results (no key, no network), after those the
                         log already holds
  --script-from-start    with --fake-api: FILE holds only the replies after the log; serve it from its first
  --allow-version-skew   resume a log recorded with a different statechart
  --quiet                print only the terminal, not each new message
${INSPECT_HELP}`;

/** The parts of a `--fake-api` scenario resume uses; other members (a simulate scenario's name, config) are ignored. */
const resumeScenarioSchema = z.looseObject({
  model: z.unknown().optional(),
  compactionModel: z.unknown().optional(),
  tools: z
    .array(z.looseObject({ name: z.string().min(1), results: z.array(z.looseObject({ content: z.string(), isError: z.boolean().optional() })).max(MAX_SCRIPTED_ANSWERS) }))
    .default([]),
});

/** Reads and checks a `--fake-api` scenario before anything starts: a file of the wrong shape is exit 2, naming the place. */
function readFakeApiScenario(path: string, cwd: string): FakeScriptInput & { model: NonNullable<FakeScriptInput['model']>; tools: ScriptedTool[] } {
  const text = readInputText(path, cwd, { expected: 'a fake-API scenario (JSON)', format: 'json' });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--fake-api: ${shownPath(path, cwd)}: ${messageOf(error)}`);
  }
  const shape = resumeScenarioSchema.safeParse(data);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new UsageError(`--fake-api: ${shownPath(path, cwd)}: ${formatPath(issue.path)}: ${issue.message} (expected {model: [replies], compactionModel?: [replies], tools?: [{name, results: [{content}]}]})`);
  }
  try {
    const input = { model: shape.data.model ?? [], ...(shape.data.compactionModel === undefined ? {} : { compactionModel: shape.data.compactionModel }) } as FakeScriptInput;
    parseFakeScript(input, shownPath(path, cwd));
    return { ...input, model: input.model ?? [], tools: shape.data.tools as ScriptedTool[] };
  } catch (error) {
    throw new UsageError(`--fake-api: ${messageOf(error)}`);
  }
}

function describe(item: QueryItem): string | null {
  switch (item.type) {
    case 'assistant':
      return `assistant: ${item.message.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `[tool_use ${b.name}]` : `[${b.type}]`)).join(' ')}`;
    case 'user':
      return `user: ${typeof item.message.content === 'string' ? item.message.content : item.message.content.map((b) => b.type).join(', ')}`;
    case 'system':
      return `system (${item.subtype}): ${item.content}`;
    default:
      return null;
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('resume', expandInspectArgs(args), {
    ...INSPECT_FLAGS,
    'fake-api': { type: 'string' },
    'script-from-start': { type: 'boolean', default: false },
    cwd: { type: 'string' },
    yes: { type: 'boolean', default: false },
    'allow-version-skew': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('expected exactly one session log path');
  const [log] = positionals;
  // Checked before anything starts (a fake API, a key prompt): a bad log is exit 2 whatever else is missing.
  const logText = readInputText(log, io.cwd, { expected: 'a session log (JSON Lines)', format: 'jsonl' });
  const parsed = parseSessionLogText(logText, shownPath(log, io.cwd));
  // The lines resume continues from: not those the parser dropped (a torn last line, lines no hash covers).
  const keptText = parsed.truncated ? Buffer.from(logText).subarray(0, parsed.validBytes).toString() : logText;

  let fake: FakeApi | null = null;
  let tools: ToolRuntime | undefined;
  const scenarioPath = values['fake-api'];
  if (scenarioPath !== undefined) {
    const whole = readFakeApiScenario(scenarioPath, io.cwd);
    const scenario = values['script-from-start'] ? whole : continueScriptAfterLog(whole, parsed.events.map((line) => line.event), shownPath(scenarioPath, io.cwd));
    fake = await startFakeAnthropicApi({ model: scenario.model, ...(scenario.compactionModel ? { compactionModel: scenario.compactionModel } : {}) });
    tools = scriptedToolRuntime(scenario.tools);
  } else if (values['script-from-start']) {
    throw new UsageError('--script-from-start goes with --fake-api <scenario.json>');
  } else if (!io.env.ANTHROPIC_API_KEY) {
    throw new UsageError('set ANTHROPIC_API_KEY (or pass --fake-api <scenario.json>)');
  } else if (values.cwd !== undefined) {
    const root = resolve(io.cwd, values.cwd);
    if (!existsSync(root)) throw new UsageError(`--cwd: no such directory: ${root}`);
    tools = createToolRuntime({
      tools: createFileTools({ root }),
      canUseTool: createPermissionPrompt({ yes: values.yes === true }),
    });
  }
  const callModel = createAnthropicModelCaller(fake ? { apiKey: 'fake-key', baseURL: fake.baseURL } : { apiKey: io.env.ANTHROPIC_API_KEY });
  const live = await startCliInspector(values, io, 'resume');
  const watched = live?.inspector.attachContinuation('main', keptText.split('\n').filter((line) => line.trim() !== ''));
  try {
    const generator = resumeFromLog(log, {
      deps: { callModel },
      ...(tools ? { tools } : {}),
      allowVersionSkew: values['allow-version-skew'] === true,
      ...(watched ? { alsoRecordTo: watched.sink, observers: [watched.observer], forkObservers: live!.forkObservers } : {}),
    });
    while (true) {
      const next = await generator.next();
      if (next.done) {
        io.stdout.write(`terminal: ${next.value.reason}\n`);
        return next.value.reason === 'model_error' ? 1 : 0;
      }
      const line = values.quiet ? null : describe(next.value);
      if (line) io.stdout.write(`${line}\n`);
    }
  } finally {
    await fake?.close();
    await live?.finish();
  }
}

export const resumeCommand: CliCommand = {
  name: 'resume',
  help: HELP,
  run,
};
