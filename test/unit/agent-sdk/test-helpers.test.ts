/** agentSdkOptions() as a test uses it: the requests the scripted model received, the session log, cleanup. */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import { agentSdkOptions } from '../../../src/agent-sdk/index.ts';
import { runHeadless, SDK_ARGS, tempProject } from './headless-harness.ts';

it('a test reads the requests and the session log, and cleanup removes the temporary files', async () => {
  const options = agentSdkOptions({ script: { model: [{ content: [{ type: 'text', text: 'Hello!' }] }] } });
  // Spreading copies the SDK's options only (executableArgs when the build's start-up snapshot fits this Node).
  const snapshot = options.executableArgs ? ['executableArgs'] : [];
  expect(Object.keys({ ...options }).sort()).toEqual(['executable', ...snapshot, 'extraArgs', 'pathToClaudeCodeExecutable']);
  const flags = Object.entries(options.extraArgs).flatMap(([flag, value]) => (value === null ? [`--${flag}`] : [`--${flag}`, value]));
  const cwd = tempProject();
  const run = await runHeadless([...SDK_ARGS, ...flags], { cwd, prompt: 'Say hello' });
  expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'Hello!' });

  const requests = options.requests();
  expect(requests).toHaveLength(1);
  expect(requests[0].path).toBe('/v1/messages');
  expect(JSON.stringify(requests[0].body.messages)).toContain('Say hello');

  const sessionId = run.lines.find((l) => l.subtype === 'init')?.session_id as string;
  const log = options.sessionLog(cwd, sessionId);
  expect(log.length).toBeGreaterThan(0);
  expect(JSON.stringify(log)).toContain('Hello!');

  const scriptDir = dirname(options.extraArgs['fake-api'] as string);
  expect(existsSync(scriptDir)).toBe(true);
  options.cleanup();
  expect(existsSync(scriptDir)).toBe(false);
  expect(options.requests()).toEqual([]);
});
