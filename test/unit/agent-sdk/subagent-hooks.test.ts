/** SubagentStart and SubagentStop hooks around a Task call's subagent, as claude 2.1.334 runs them for an SDK program. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript, type Line } from './headless-harness.ts';

function taskScript(background: boolean) {
  return {
    model: [
      { content: [{ type: 'tool_use' as const, id: 'toolu_task', name: 'Task', input: { description: 'Summarize', prompt: 'Say hi.', subagent_type: 'general-purpose', run_in_background: background } }] },
      { content: [{ type: 'text' as const, text: 'hi from the subagent' }] },
      { content: [{ type: 'text' as const, text: 'done' }] },
      { content: [{ type: 'text' as const, text: 'noted' }] },
    ],
  };
}

async function runWithSubagentHooks(background: boolean, matcher?: string, startAnswer: Line = {}) {
  const cwd = tempProject();
  const inputs: Line[] = [];
  const on = (id: string) => [{ ...(matcher ? { matcher } : {}), hookCallbackIds: [id] }];
  const run = await runHeadless([...SDK_ARGS, '--allowedTools', 'Task', '--fake-api', writeScript(cwd, taskScript(background))], {
    cwd,
    opening: [initialize({ hooks: { SubagentStart: on('start'), SubagentStop: on('stop'), PostToolUse: [{ hookCallbackIds: ['post'] }] } }), userLine('delegate')],
    onLine: (line: Line, send) => {
      if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
      inputs.push(line.request.input);
      const answer = line.request.input.hook_event_name === 'SubagentStart' ? startAnswer : {};
      send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: answer } });
    },
  });
  return { run, inputs };
}

it('a foreground subagent: SubagentStart before it runs, SubagentStop with its answer, both before the Task call\'s PostToolUse', async () => {
  const { run, inputs } = await runWithSubagentHooks(false);
  expect(inputs.map((i) => i.hook_event_name)).toEqual(['SubagentStart', 'SubagentStop', 'PostToolUse']);
  // The subagent's own id, in claude's form, the same as its task's id; its log is still named by the call.
  const taskId = run.lines.find((l) => l.subtype === 'task_started')!.task_id;
  expect(taskId).toMatch(/^a[0-9a-f]{16}$/);
  expect(inputs[0]).toMatchObject({ agent_id: taskId, agent_type: 'general-purpose', session_id: expect.any(String), cwd: expect.any(String) });
  expect(inputs[1]).toMatchObject({ agent_id: taskId, agent_type: 'general-purpose', stop_hook_active: false, last_assistant_message: 'hi from the subagent' });
  expect(inputs[1].agent_transcript_path).toMatch(/toolu_task\.jsonl$/);
  expect(run.lines.find((l) => l.type === 'result')).toMatchObject({ subtype: 'success', result: 'done' });
});

it("claude 2.1.334's fields: SubagentStart has no permission_mode, SubagentStop carries session_crons; the Task call's hook input names the tool Agent", async () => {
  const { inputs } = await runWithSubagentHooks(false);
  expect(inputs[0]).not.toHaveProperty('permission_mode');
  expect(inputs[1]).toMatchObject({ permission_mode: 'default', session_crons: [] });
  expect(inputs[2]).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Agent', tool_use_id: 'toolu_task' });
});

it("claude 2.1.334's fields: SubagentStop carries effort (high by default) and background_tasks (none running), SubagentStart neither", async () => {
  const { inputs } = await runWithSubagentHooks(false);
  expect(inputs[0]).not.toHaveProperty('effort');
  expect(inputs[0]).not.toHaveProperty('background_tasks');
  expect(inputs[1]).toMatchObject({ effort: { level: 'high' }, background_tasks: [] });
  expect(inputs[2]).toMatchObject({ effort: { level: 'high' } });
});

it("the Agent call's PostToolUse tool_response is claude's object: the report as content, the agent's id and type, its totals", async () => {
  const { inputs } = await runWithSubagentHooks(false);
  const agentId = inputs[0]!.agent_id;
  expect(inputs[2]!.tool_response).toEqual({
    status: 'completed',
    prompt: 'Say hi.',
    agentId,
    agentType: 'general-purpose',
    content: [{ type: 'text', text: 'hi from the subagent' }],
    resolvedModel: expect.any(String),
    totalDurationMs: expect.any(Number),
    totalTokens: expect.any(Number),
    totalToolUseCount: 0,
    usage: expect.objectContaining({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) }),
  });
});

it("a background call's PostToolUse tool_response is the launch (async_launched), and the subagent's own SubagentStop lists it as running", async () => {
  const { inputs } = await runWithSubagentHooks(true);
  const start = inputs.find((i) => i.hook_event_name === 'SubagentStart')!;
  const post = inputs.find((i) => i.hook_event_name === 'PostToolUse')!;
  expect(post.tool_response).toEqual({ isAsync: true, status: 'async_launched', agentId: start.agent_id, description: 'Summarize', prompt: 'Say hi.', outputFile: expect.stringMatching(/toolu_task\.jsonl$/) });
  const stop = inputs.find((i) => i.hook_event_name === 'SubagentStop')!;
  expect(stop.background_tasks).toEqual([{ id: start.agent_id, type: 'subagent', status: 'running', description: 'Summarize', agent_type: 'general-purpose' }]);
});

it('a background subagent runs both hooks too', async () => {
  const { inputs } = await runWithSubagentHooks(true);
  const events = inputs.map((i) => i.hook_event_name);
  expect(events).toContain('SubagentStart');
  expect(events).toContain('SubagentStop');
  expect(events.indexOf('SubagentStart')).toBeLessThan(events.indexOf('SubagentStop'));
});

it('a matcher is matched against the agent type', async () => {
  const other = await runWithSubagentHooks(false, 'Explore');
  expect(other.inputs.map((i) => i.hook_event_name)).toEqual(['PostToolUse']);
  const same = await runWithSubagentHooks(false, 'general-purpose');
  expect(same.inputs.map((i) => i.hook_event_name)).toEqual(['SubagentStart', 'SubagentStop', 'PostToolUse']);
});

it("SubagentStart's additionalContext opens the subagent's first message, as a system reminder", async () => {
  const { run } = await runWithSubagentHooks(false, undefined, { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'Answer in French.' } });
  const sessions = join(run.cwd, '.turnloop', 'sessions');
  const agents = readdirSync(sessions).find((name) => name.endsWith('.agents'))!;
  const header = JSON.parse(readFileSync(join(sessions, agents, 'toolu_task.jsonl'), 'utf8').split('\n')[0]);
  expect(header.params.messages[0].message.content).toBe('<system-reminder>\nSubagentStart hook additional context: Answer in French.\n</system-reminder>\nSay hi.');
});

it("a SubagentStop decision: 'block' keeps the subagent going with the reason; the hook runs again with stop_hook_active", async () => {
  const cwd = tempProject();
  const inputs: Line[] = [];
  const script = {
    model: [
      { content: [{ type: 'tool_use' as const, id: 'toolu_task', name: 'Task', input: { description: 'Summarize', prompt: 'Say hi.', subagent_type: 'general-purpose', run_in_background: false } }] },
      { content: [{ type: 'text' as const, text: 'first try' }] },
      { content: [{ type: 'text' as const, text: 'second try' }] },
      { content: [{ type: 'text' as const, text: 'done' }] },
    ],
  };
  const run = await runHeadless([...SDK_ARGS, '--allowedTools', 'Task', '--fake-api', writeScript(cwd, script)], {
    cwd,
    opening: [initialize({ hooks: { SubagentStop: [{ hookCallbackIds: ['stop'] }] } }), userLine('delegate')],
    onLine: (line: Line, send) => {
      if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
      inputs.push(line.request.input);
      const answer = inputs.length === 1 ? { decision: 'block', reason: 'Check the file again.' } : {};
      send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: answer } });
    },
  });
  expect(inputs.map((i) => [i.stop_hook_active, i.last_assistant_message])).toEqual([[false, 'first try'], [true, 'second try']]);
  const sessions = join(run.cwd, '.turnloop', 'sessions');
  const agents = readdirSync(sessions).find((name) => name.endsWith('.agents'))!;
  expect(readFileSync(join(sessions, agents, 'toolu_task.jsonl'), 'utf8')).toContain('Check the file again.');
  expect(run.lines.find((l) => l.type === 'result')).toMatchObject({ subtype: 'success', result: 'done' });
});
