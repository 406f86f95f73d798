/**
 * Nested subagents stop at claude's depth: a subagent of spawn depth 3 is not offered the subagent tool (claude
 * 2.1.334 side by side: test/agent-sdk/conf-nested-depth.test.ts), so a model that keeps delegating cannot nest runs
 * without end (sdk-tools.ts, MAX_SUBAGENT_SPAWN_DEPTH).
 */
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { runHeadless, SDK_ARGS, tempProject, initialize, userLine, type Line } from './headless-harness.ts';

const delegate = (id: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Agent', input: { description: `Go ${id}`, prompt: 'Delegate again.', subagent_type: 'general-purpose', run_in_background: false } }] });
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('nested subagents', () => {
  it('are offered the subagent tool down to depth 2; a subagent of depth 3 is a leaf; each task tells its progress', async () => {
    const api = await startFakeAnthropicApi({ model: [delegate('toolu_1'), delegate('toolu_2'), delegate('toolu_3'), say('leaf'), say('two'), say('one'), say('done')] });
    try {
      const run = await runHeadless([...SDK_ARGS], { cwd: tempProject(), env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL }, opening: [initialize(), userLine('delegate')] });
      const offered = api.requests.map((request) => (request as { tools: Array<{ name: string }> }).tools.some((tool) => tool.name === 'Agent'));
      // The main thread, depth 1, depth 2 are offered Agent; depth 3 is not (then each answers in turn).
      expect(offered.slice(0, 4)).toEqual([true, true, true, false]);
      const started = run.lines.filter((line: Line) => line.subtype === 'task_started');
      expect(started.map((line: Line) => [line.tool_use_id, line.spawn_depth])).toEqual([['toolu_1', 1], ['toolu_2', 2], ['toolu_3', 3]]);
      // Each task's reply that calls a tool is told as that task's progress, a nested task's too (claude 2.1.334).
      const progress = run.lines.filter((line: Line) => line.subtype === 'task_progress');
      expect(progress.map((line: Line) => [line.tool_use_id, line.description, line.usage.tool_uses])).toEqual([['toolu_1', 'Go toolu_2', 1], ['toolu_2', 'Go toolu_3', 1]]);
      expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'done' });
    } finally {
      await api.close();
    }
  });
  it('with forwardSubagentText, show each nested subagent\'s own messages in its call, each task\'s progress after its reply', async () => {
    const api = await startFakeAnthropicApi({ model: [delegate('toolu_1'), delegate('toolu_2'), say('leaf'), say('one'), say('done')] });
    try {
      const run = await runHeadless([...SDK_ARGS], { cwd: tempProject(), env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL }, opening: [initialize({ forwardSubagentText: true }), userLine('delegate')] });
      const shown = run.lines
        .filter((line: Line) => line.type === 'assistant' || line.type === 'user' || ['task_started', 'task_progress', 'task_notification'].includes(line.subtype))
        .map((line: Line) => (line.type === 'system' ? `${line.subtype} ${line.tool_use_id}` : `${line.type} in ${line.parent_tool_use_id}`));
      // The sequence claude 2.1.334 shows (test/agent-sdk/conf-nested-depth.test.ts), the main thread's prompt not being echoed.
      expect(shown).toEqual([
        'assistant in null', 'task_started toolu_1', 'user in toolu_1', 'assistant in toolu_1', 'task_progress toolu_1',
        'task_started toolu_2', 'user in toolu_2', 'assistant in toolu_2', 'task_notification toolu_2', 'user in toolu_1', 'assistant in toolu_1',
        'task_notification toolu_1', 'user in null', 'assistant in null',
      ]);
    } finally {
      await api.close();
    }
  });
});
