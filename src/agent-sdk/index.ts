/**
 * `turnloop/agent-sdk`: run a Claude Agent SDK program on turnloop (docs/agent-sdk.md). The SDK's `query()` spawns
 * the executable its `pathToClaudeCodeExecutable` names; `agentSdkOptions()` returns the options that make that
 * executable `turnloop`, offline against a scripted model when you give a script. Spread them into `options`:
 *
 * @example
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * import { agentSdkOptions } from 'turnloop/agent-sdk';
 *
 * const script = { model: [{ content: [{ type: 'text', text: 'Hello!' }] }] };
 * for await (const message of query({ prompt: 'Say hello', options: { ...agentSdkOptions({ script }) } })) {
 *   if (message.type === 'result') console.log(message.subtype, message.result);
 * }
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeScriptInput } from '../fake-api/index.ts';
import { headlessSnapshotArgs } from './headless-snapshot-args.ts';
import { sessionLogPath } from './session-store.ts';

export interface AgentSdkOptionsInput {
  /**
   * The scripted model: a fake-API script (`{ model: [...], agentRuns?: {...} }`, docs/fake-api.md) or the path of
   * one. Absent: turnloop calls the real API (ANTHROPIC_API_KEY in the SDK's `env`).
   */
  script?: FakeScriptInput | string;
}

/** One request the scripted model received, as the executable sent it. */
export interface ScriptedRequest {
  path: string;
  /** The request body (`model`, `messages`, `system`, `tools`, `max_tokens`, `thinking`, ...). */
  body: Record<string, unknown>;
  /** Set when the fake API refused it as the real API would. */
  rejected?: { rule: string; message: string };
  /** Set when the script had run out (answered 500). */
  exhausted?: true;
}

/** What to spread into the SDK's `query({ options })`. */
export interface AgentSdkOptions {
  pathToClaudeCodeExecutable: string;
  executable: 'node';
  /**
   * Set only when this package's build made a start-up snapshot with the Node that runs this program (and the
   * SDK's `node` is that Node): the arguments that start turnloop from it (docs/agent-sdk.md, "A faster start").
   */
  executableArgs?: string[];
  extraArgs: Record<string, string | null>;
  /**
   * The requests the scripted model received during the runs so far (read after `query()` ends; only with a
   * script). Not enumerable: spreading the options does not copy it.
   */
  readonly requests: () => ScriptedRequest[];
  /** The session log of a session (`cwd` as given to the SDK), one parsed JSON record per line. Not enumerable. */
  readonly sessionLog: (cwd: string, sessionId: string) => Array<Record<string, unknown>>;
  /** Removes the temporary files these options made (also done when the process exits). Not enumerable. */
  readonly cleanup: () => void;
}

/** The `turnloop` bin of this package (it runs the built `dist/`). */
export function turnloopExecutablePath(): string {
  return fileURLToPath(new URL('../../bin/turnloop.mjs', import.meta.url));
}

/** The SDK options that run its program on turnloop; with `script`, offline. */
export function agentSdkOptions(input: AgentSdkOptionsInput = {}): AgentSdkOptions {
  const extraArgs: Record<string, string | null> = {};
  let temp: string | undefined;
  let requestsFile: string | undefined;
  const cleanup = () => {
    if (temp) rmSync(temp, { recursive: true, force: true });
    temp = undefined;
    process.off('exit', cleanup);
  };
  if (input.script !== undefined) {
    temp = mkdtempSync(join(tmpdir(), 'turnloop-sdk-script-'));
    process.once('exit', cleanup);
    let path = input.script;
    if (typeof path !== 'string') {
      path = join(temp, 'script.json');
      writeFileSync(path, JSON.stringify(input.script));
    }
    requestsFile = join(temp, 'requests.jsonl');
    extraArgs['fake-api'] = path;
    extraArgs['fake-api-log'] = requestsFile;
  }
  const snapshotArgs = headlessSnapshotArgs(fileURLToPath(new URL('../../dist/cli/', import.meta.url)));
  const options = {
    pathToClaudeCodeExecutable: turnloopExecutablePath(),
    executable: 'node' as const,
    ...(snapshotArgs.length > 0 ? { executableArgs: snapshotArgs } : {}),
    extraArgs,
  };
  return Object.defineProperties(options, {
    requests: { value: () => readJsonLines(requestsFile) as unknown as ScriptedRequest[], enumerable: false },
    sessionLog: { value: (cwd: string, sessionId: string) => readJsonLines(sessionLogPath(cwd, sessionId)), enumerable: false },
    cleanup: { value: cleanup, enumerable: false },
  }) as AgentSdkOptions;
}

function readJsonLines(path: string | undefined): Array<Record<string, unknown>> {
  if (path === undefined || !existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}
