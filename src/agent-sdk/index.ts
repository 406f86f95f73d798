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
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeScriptInput } from '../fake-api/index.ts';

export interface AgentSdkOptionsInput {
  /**
   * The scripted model: a fake-API script (`{ model: [...], agentRuns?: {...} }`, docs/fake-api.md) or the path of
   * one. Absent: turnloop calls the real API (ANTHROPIC_API_KEY in the SDK's `env`).
   */
  script?: FakeScriptInput | string;
}

/** What to spread into the SDK's `query({ options })`. */
export interface AgentSdkOptions {
  pathToClaudeCodeExecutable: string;
  executable: 'node';
  extraArgs: Record<string, string | null>;
}

/** The `turnloop` bin of this package (it runs the built `dist/`). */
export function turnloopExecutablePath(): string {
  return fileURLToPath(new URL('../../bin/turnloop.mjs', import.meta.url));
}

/** The SDK options that run its program on turnloop; with `script`, offline. */
export function agentSdkOptions(input: AgentSdkOptionsInput = {}): AgentSdkOptions {
  const extraArgs: Record<string, string | null> = {};
  if (input.script !== undefined) {
    let path = input.script;
    if (typeof path !== 'string') {
      path = join(mkdtempSync(join(tmpdir(), 'turnloop-sdk-script-')), 'script.json');
      writeFileSync(path, JSON.stringify(input.script));
    }
    extraArgs['fake-api'] = path;
  }
  return { pathToClaudeCodeExecutable: turnloopExecutablePath(), executable: 'node', extraArgs };
}
