/**
 * Extension `backgroundAgentTool`: an agent tool given `background` runs a `run_in_background: true` call without
 * waiting; the call's result says the agent was launched (Claude Code 2.1.334's words) and the child's report
 * reaches the parent as a `<task-notification>` user message through `attachments_collected`, so the session
 * log holds it and the tree replays with zero model calls.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backgroundLaunchText, createBackgroundAgents } from '../../../src/agents/background-agents.ts';
import { defineAgentTool } from '../../../src/agents/define-agent-tool.ts';
import { toolDefinitionForModel } from '../../../src/tools/define-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import type { AssistantContentBlock, Message } from '../../../src/messages/types.ts';
import { loadSessionLog } from '../../../src/replay/parse-session-log.ts';
import { replayTree } from '../../../src/replay/child-logs.ts';
import { loadSessionTree } from '../../../src/viz/session-tree.ts';
import { routedModelCaller, text } from './agent-tree.ts';

const taskCall = (runInBackground: boolean) => ({
  content: [{ type: 'tool_use', id: 'toolu_bg', name: 'Task', input: { description: 'Count files', prompt: 'count the files', run_in_background: runInBackground } }] as AssistantContentBlock[],
});

function textOf(m: Message): string {
  if (m.type !== 'user') return '';
  const c = m.message.content;
  return typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? (typeof b.content === 'string' ? b.content : '') : '')).join('\n');
}

describe('background agent tool', () => {
  it('runs a run_in_background call in the background: launch text at once, the report as a notification, recorded and replayed', async () => {
    const background = createBackgroundAgents();
    const task = defineAgentTool({ name: 'Task', description: 'Runs a subagent', background });
    // The child answers only after a delay, so a call that waited for it could not have returned first.
    const callModel = routedModelCaller({ sdk: [taskCall(true), text('all done')], 'agent:Task': [text('there are 7 files')] }, { delayMs: 30 });
    const requests: Message[][] = [];
    const recordingModel = ((request, options) => {
      if (options.querySource === 'sdk') requests.push(request.messages as Message[]);
      return callModel(request, options);
    }) as typeof callModel;
    const log = join(mkdtempSync(join(tmpdir(), 'tl-bg-')), 'run.jsonl');
    const { items, terminal } = await runQuery({
      prompt: 'go',
      tools: [task],
      deps: { callModel: recordingModel, clock: virtualClock(0), newId: counterIds('t'), collectAttachments: background.collectAttachments },
      record: log,
    });
    expect(terminal.reason).toBe('completed');
    const messages = items as Message[];
    // The call's result is the launch text, not the child's report.
    const result = messages.find((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result'))!;
    expect(textOf(result)).toBe(backgroundLaunchText('toolu_bg'));
    // The second request carries the notification after the tool result.
    expect(requests).toHaveLength(2);
    const last = requests[1]!.map(textOf).join('\n');
    expect(last.indexOf('<task-notification>')).toBeGreaterThan(last.indexOf('Async agent launched successfully.'));
    expect(last).toContain('<tool-use-id>toolu_bg</tool-use-id>\n<status>completed</status>\n<summary>Agent "Count files" finished</summary>\n<result>there are 7 files</result>');
    expect(background.pending).toBe(0);
    // It reached the loop as an event: the log holds it, and the tree (child included) replays with no model call.
    const events = loadSessionLog(log).events.map((e) => e.event);
    const collected = events.find((e) => e.type === 'attachments_collected' && e.attachments.length > 0);
    expect(collected && JSON.stringify(collected)).toContain('there are 7 files');
    const tree = replayTree(log);
    expect(tree.terminal?.reason).toBe('completed');
    expect([...tree.children.keys()]).toEqual(['toolu_bg']);
    // The viewer draws it like any subagent: a child run of the Task call, with its own steps.
    const view = loadSessionTree(log);
    expect(view.children?.map((c) => [c.toolUseId, c.agent])).toEqual([['toolu_bg', 'Task']]);
    expect(view.children?.[0]?.session.events.length).toBeGreaterThan(1);
  });

  it('without background, a run_in_background call still runs the agent to its end (the original loop)', async () => {
    const task = defineAgentTool({ name: 'Task', description: 'Runs a subagent' });
    const callModel = routedModelCaller({ sdk: [taskCall(true), text('all done')], 'agent:Task': [text('there are 7 files')] });
    const { items } = await runQuery({ prompt: 'go', tools: [task], deps: { callModel, clock: virtualClock(0), newId: counterIds('t') } });
    const result = (items as Message[]).find((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result'))!;
    expect(textOf(result)).toBe('there are 7 files');
  });

  it('a background child that ends without an answer notifies its parent with status failed and what happened', async () => {
    const background = createBackgroundAgents();
    const task = defineAgentTool({ name: 'Task', description: 'Runs a subagent', background, maxTurns: 1 });
    // The child asks for a tool it does not have, so its one turn ends at max_turns without a text answer.
    const childCall = { content: [{ type: 'tool_use', id: 'toolu_c', name: 'Nope', input: {} }] as AssistantContentBlock[] };
    const callModel = routedModelCaller({ sdk: [taskCall(true), text('all done')], 'agent:Task': [childCall] });
    const requests: Message[][] = [];
    const recordingModel = ((request, options) => {
      if (options.querySource === 'sdk') requests.push(request.messages as Message[]);
      return callModel(request, options);
    }) as typeof callModel;
    await runQuery({ prompt: 'go', tools: [task], deps: { callModel: recordingModel, clock: virtualClock(0), newId: counterIds('t'), collectAttachments: background.collectAttachments } });
    const last = requests[1]!.map(textOf).join('\n');
    expect(last).toContain('<status>failed</status>\n<summary>Agent "Count files" failed</summary>\n<result>it ended with max_turns</result>');
  });

  it('tells the model what run_in_background does: waits without background agents, returns at once with them', () => {
    const described = (background?: ReturnType<typeof createBackgroundAgents>) => {
      const tool = defineAgentTool({ name: 'Task', description: 'Runs a subagent', ...(background ? { background } : {}) });
      const schema = toolDefinitionForModel(tool).input_schema as { properties: { run_in_background: { description: string } } };
      return schema.properties.run_in_background.description;
    };
    expect(described()).toContain('always runs it to its end');
    expect(described(createBackgroundAgents())).toContain('returns at once');
  });
});
