/**
 * `turnloop demo`: the worked example, offline. A sample project is copied to a temporary directory and
 * a scripted model (served by the loopback fake Messages API, reached through the real SDK) fixes its
 * null-pointer bug with the real built-in file tools. Shows the run live, the diff it applied, the terminal and
 * the session log.
 */
import { join } from 'node:path';
import { turnloopCommand } from '../invocation.ts';
import { createAnthropicModelCaller } from '../../model/index.ts';
import { runLoop } from '../../drivers/run-loop.ts';
import { startFakeAnthropicApi } from '../../fake-api/index.ts';
import type { Terminal } from '../../data/outcomes.ts';
import { createSessionRecorder } from '../../replay/index.ts';
import { createFileTools } from '../../tools/builtin/index.ts';
import { EXIT_FAILURE_TERMINAL, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { DEMO_PROMPT, DEMO_SYSTEM_PROMPT, demoModelAnswers } from '../demo/demo-script.ts';
import { copyDemoProject, DEMO_PROJECT_DIR, diffProjects } from '../demo/project-files.ts';
import { createLiveProgress } from '../demo/progress.ts';
import { styleFor } from '../render/style.ts';
import { terminalDetail } from '../render/transcript.ts';
import { parseFlags } from './parse-flags.ts';
import { expandInspectArgs, INSPECT_FLAGS, INSPECT_HELP, startCliInspector, type CliInspector } from '../inspect-flag.ts';

const HELP = `Usage: turnloop demo [--json] [--inspect[=PORT]] [--inspect-keep]

Runs the worked example offline, in a few seconds: copies a small sample project (examples/demo-project)
to a temporary directory and asks "${DEMO_PROMPT}".
A scripted model, served by a loopback fake of the Anthropic Messages API and reached through the real SDK,
uses the real built-in tools (Grep, Glob, Read, Edit, confined to the copy) to find, read and fix the bug,
then reports. Prints the run as it happens, the diff it applied, the terminal and the session log
(replay it with: turnloop replay <log>). No API key, no network.

Options:
  --json              machine-readable summary: terminal, project, sessionLog, diff, modelCalls, toolCalls
${INSPECT_HELP}`;

export interface DemoOutcome {
  terminal: Terminal;
  project: string;
  sessionLog: string;
  diff: string;
  modelCalls: number;
  toolCalls: string[];
}

async function runDemo(io: CliIo, json: boolean, live: CliInspector | null): Promise<DemoOutcome> {
  const style = styleFor(io);
  const { base, project } = copyDemoProject();
  const sessionLog = join(base, 'session.jsonl');
  const say = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  say(style.bold('turnloop demo'));
  say(`project: ${project} (a copy of examples/demo-project)`);
  say(`prompt:  ${DEMO_PROMPT}\n`);

  const api = await startFakeAnthropicApi({ model: demoModelAnswers(io.stdout.isTTY === true && !json ? 12 : 0) });
  const config = { sessionId: 'demo' };
  const recorder = createSessionRecorder(sessionLog, { config });
  const progress = json ? null : createLiveProgress(io, style);
  const toolCalls: string[] = [];
  let terminal: Terminal;
  try {
    const run = runLoop({
      prompt: DEMO_PROMPT,
      systemPrompt: [DEMO_SYSTEM_PROMPT],
      tools: createFileTools({ root: project }),
      config,
      deps: { callModel: createAnthropicModelCaller({ apiKey: 'sk-ant-demo-not-a-real-key', baseURL: api.baseURL }) },
      ...(live ? { observers: live.observers, forkObservers: live.forkObservers } : {}),
      onStep: (step) => {
        recorder(step);
        progress?.onStep(step);
        for (const effect of step.effects) {
          if (effect.type === 'enqueue_tool') toolCalls.push(effect.toolUse.name);
          if (effect.type === 'run_tools') for (const batch of effect.batches) toolCalls.push(...batch.toolUses.map((t) => t.name));
        }
      },
    });
    let next = await run.next();
    while (!next.done) {
      progress?.onItem(next.value);
      next = await run.next();
    }
    terminal = next.value;
  } finally {
    progress?.stop();
    recorder.close();
    await api.close();
  }
  return { terminal, project, sessionLog, diff: diffProjects(DEMO_PROJECT_DIR, project), modelCalls: api.requests.length, toolCalls };
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('demo', expandInspectArgs(args), { ...INSPECT_FLAGS, json: { type: 'boolean', default: false } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (see turnloop demo --help)`);
  const json = values.json === true;
  const live = await startCliInspector(values, io, 'demo');
  const outcome = await runDemo(io, json, live);
  const ok = outcome.terminal.reason === 'completed';
  if (json) {
    io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
  } else {
    const style = styleFor(io);
    io.stdout.write(`\n${style.bold('diff applied:')}\n`);
    const colour = (line: string) => (line.startsWith('+') && !line.startsWith('+++') ? style.green(line) : line.startsWith('-') && !line.startsWith('---') ? style.red(line) : line);
    io.stdout.write(outcome.diff ? outcome.diff.split('\n').map(colour).join('\n') : '(no change)\n');
    const paint = ok ? style.green : style.red;
    io.stdout.write(`\n${style.bold(paint(`terminal: ${outcome.terminal.reason}${terminalDetail(outcome.terminal)}`))}`);
    io.stdout.write(` after ${outcome.modelCalls} model calls and ${outcome.toolCalls.length} tool calls (${outcome.toolCalls.join(', ')})\n`);
    const turnloop = turnloopCommand(io.env);
    io.stdout.write(`session log: ${outcome.sessionLog}\n  replay it:  ${turnloop} replay ${outcome.sessionLog}\n  view it:    ${turnloop} viz ${outcome.sessionLog} --out turnloop-demo.html\n`);
    io.stdout.write(`the fixed project stays in ${outcome.project}\n`);
  }
  await live?.finish();
  return ok ? EXIT_OK : EXIT_FAILURE_TERMINAL;
}

export const demoCommand: CliCommand = {
  name: 'demo',
  help: HELP,
  run,
};
