/**
 * `prompt_id` and `effort` of hook inputs, as claude 2.1.334 sends them (probed with
 * test/agent-sdk/programs/parity-agent-ids.ts `parityPromptIds`): a new id per user prompt, from its
 * UserPromptSubmit on, not the user message's uuid; `effort` on the hooks inside a turn, not on UserPromptSubmit.
 */
import { expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript, type Line } from './headless-harness.ts';

it('each user prompt gets its own prompt_id, carried by every hook input until the next prompt', async () => {
  const cwd = tempProject();
  const script = { model: [{ content: [{ type: 'text' as const, text: 'One.' }] }, { content: [{ type: 'text' as const, text: 'Two.' }] }] };
  const inputs: Line[] = [];
  const hooks = { UserPromptSubmit: [{ hookCallbackIds: ['prompt'] }], Stop: [{ hookCallbackIds: ['stop'] }] };
  await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
    cwd,
    results: 2,
    opening: [initialize({ hooks }), { ...userLine('Prompt 1.'), uuid: '11111111-1111-4111-8111-111111111111' }],
    onLine: (line: Line, send) => {
      if (line.type === 'result' && line.result === 'One.') send({ ...userLine('Prompt 2.'), uuid: '22222222-2222-4222-8222-222222222222' });
      if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
      inputs.push(line.request.input);
      send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: {} } });
    },
  });
  expect(inputs.map((i) => i.hook_event_name)).toEqual(['UserPromptSubmit', 'Stop', 'UserPromptSubmit', 'Stop']);
  const ids = inputs.map((i) => i.prompt_id);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(ids[1]).toBe(ids[0]);
  expect(ids[3]).toBe(ids[2]);
  expect(ids[2]).not.toBe(ids[0]);
  expect(ids).not.toContain('11111111-1111-4111-8111-111111111111');
  expect(inputs.map((i) => i.effort)).toEqual([undefined, { level: 'high' }, undefined, { level: 'high' }]);
});

it('effort follows the session: the level asked, none on a model that takes no effort', async () => {
  const cwd = tempProject();
  const script = { model: [{ content: [{ type: 'text' as const, text: 'One.' }] }] };
  const effortOf = async (args: string[]) => {
    const inputs: Line[] = [];
    await runHeadless([...SDK_ARGS, ...args, '--fake-api', writeScript(cwd, script)], {
      cwd,
      opening: [initialize({ hooks: { Stop: [{ hookCallbackIds: ['stop'] }] } }), userLine('hi')],
      onLine: (line: Line, send) => {
        if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
        inputs.push(line.request.input);
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: {} } });
      },
    });
    return inputs[0]?.effort;
  };
  expect(await effortOf(['--effort', 'low'])).toEqual({ level: 'low' });
  expect(await effortOf(['--model', 'claude-haiku-4-5'])).toBeUndefined();
});
