/** A PreToolUse hook's `continue: false`, as claude 2.1.334 treats it: the call runs, then the turn stops; a denied call ignores it. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript, type Line } from './headless-harness.ts';

const TOUCH_THEN_DONE = {
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'touch ran.txt' } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
};

async function runWithStopHook(extraArgs: string[]) {
  const cwd = tempProject();
  const run = await runHeadless([...SDK_ARGS, ...extraArgs, '--fake-api', writeScript(cwd, TOUCH_THEN_DONE)], {
    cwd,
    opening: [initialize({ hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['stop'] }] } }), userLine('touch it')],
    onLine: (line: Line, send) => {
      if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
      send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { continue: false, stopReason: 'policy' } } });
    },
  });
  return { run, ran: existsSync(join(cwd, 'ran.txt')) };
}

it('an allowed call runs, then the turn ends: success, empty result, hook_stopped, 2 turns, exit 0', async () => {
  const { run, ran } = await runWithStopHook(['--allowedTools', 'Bash']);
  expect(ran).toBe(true);
  expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, result: '', terminal_reason: 'hook_stopped', num_turns: 2, permission_denials: [] });
  expect(run.code).toBe(0);
});

it('a denied call ignores the stop: the turn goes on and completes, the call in permission_denials', async () => {
  const { run, ran } = await runWithStopHook([]);
  expect(ran).toBe(false);
  expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, result: 'done', terminal_reason: 'completed', num_turns: 2 });
  expect(run.lines.at(-1)?.permission_denials.map((d: Line) => d.tool_name)).toEqual(['Bash']);
});

it("a UserPromptSubmit hook's continue: false stops the turn before any request: a warning and a successful result", async () => {
  const cwd = tempProject();
  const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [] })], {
    cwd,
    opening: [initialize({ hooks: { UserPromptSubmit: [{ hookCallbackIds: ['p'] }] } }), userLine('go')],
    onLine: (line: Line, send) => {
      if (line.type === 'control_request') send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { continue: false, stopReason: 'policy' } } });
    },
  });
  expect(run.lines.find((l) => l.subtype === 'informational')).toMatchObject({ content: 'Operation stopped by hook: policy', prompt_submit_outcome: { kind: 'stopped_by_hook', prompt_kept: true } });
  expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, result: 'Operation stopped by hook: policy', num_turns: 0 });
});
