/** The subagent tool as claude 2.1.334 names it in an SDK session: `Agent`, with `Task` still accepted (sdk-tools.ts). */
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { selectSdkTools } from '../../../src/agent-sdk/sdk-tools.ts';
import { ruleMatches } from '../../../src/agent-sdk/permission-modes.ts';
import { runHeadless, SDK_ARGS, tempProject, initialize, userLine, type Line } from './headless-harness.ts';

const call = (id: string, name: string) => ({ content: [{ type: 'tool_use' as const, id, name, input: { description: 'Look', prompt: 'Say hi.', subagent_type: 'general-purpose', run_in_background: false } }] });
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('the subagent tool in an SDK session', () => {
  it('is offered as Agent, runs a call named Task or Agent, names itself Agent in hook inputs and Task in init', async () => {
    const api = await startFakeAnthropicApi({ model: [call('toolu_t', 'Task'), say('one'), call('toolu_a', 'Agent'), say('two'), say('done')] });
    try {
      const hookInputs: Line[] = [];
      const run = await runHeadless([...SDK_ARGS], {
        cwd: tempProject(),
        env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL },
        opening: [initialize({ hooks: { PreToolUse: [{ matcher: 'Task', hookCallbackIds: ['task'] }, { matcher: 'Agent', hookCallbackIds: ['agent'] }] } }), userLine('delegate twice')],
        onLine: (line, send) => {
          if (line.type !== 'control_request' || line.request.subtype !== 'hook_callback') return;
          hookInputs.push({ callback: line.request.callback_id, tool: line.request.input.tool_name, id: line.request.input.tool_use_id });
          send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: {} } });
        },
      });
      const offered = (api.requests[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(offered).toContain('Agent');
      expect(offered).not.toContain('Task');
      expect(run.lines.find((l) => l.subtype === 'init')?.tools).toContain('Task');
      // Both matchers match, for both calls, and the input names the tool Agent whatever the call said.
      expect(hookInputs).toEqual([
        { callback: 'task', tool: 'Agent', id: 'toolu_t' },
        { callback: 'agent', tool: 'Agent', id: 'toolu_t' },
        { callback: 'task', tool: 'Agent', id: 'toolu_a' },
        { callback: 'agent', tool: 'Agent', id: 'toolu_a' },
      ]);
      const results = run.lines.filter((l) => l.type === 'user' && l.parent_tool_use_id === null).flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_result');
      expect(results.map((r: Line) => [r.tool_use_id, r.is_error === true])).toEqual([['toolu_t', false], ['toolu_a', false]]);
      expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'done' });
    } finally {
      await api.close();
    }
  });

  it('tools and disallowedTools naming either name choose or remove it; a rule naming either covers it', async () => {
    const names = (tools?: string[], disallowedTools: string[] = []) => selectSdkTools({ root: tempProject(), ...(tools ? { tools } : {}), disallowedTools }).tools.map((t) => t.name);
    expect(names(['Agent', 'Read'])).toEqual(['Agent', 'Read']);
    expect(names(['Task'])).toEqual(['Agent']);
    expect(names(undefined, ['Agent'])).not.toContain('Agent');
    expect(names(undefined, ['Task'])).not.toContain('Agent');
    expect(await ruleMatches('Task', 'Agent', {})).toBe(true);
    expect(await ruleMatches('Agent', 'Agent', {})).toBe(true);
    expect(await ruleMatches('Read', 'Agent', {})).toBe(false);
  });
});
