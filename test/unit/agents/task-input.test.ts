/**
 * Extension `agentToolTaskInput`: an agent tool takes the input of Claude Code's Task tool (`subagent_type`,
 * `model` beside `prompt` and `description`), so recorded Task calls validate, and runs its own agent and model.
 */
import { describe, expect, it } from 'vitest';
import { defineAgentTool } from '../../../src/agents/define-agent-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import type { AssistantContentBlock, Message } from '../../../src/messages/types.ts';
import { routedModelCaller, text } from './agent-tree.ts';

describe('agent tool input', () => {
  it("accepts Claude Code's Task input (subagent_type, model) and runs its own agent and model", async () => {
    await expectTaskCallRunsItsAgent({});
  });

  it("accepts Claude Code's Task input with run_in_background and runs the agent to its end", async () => {
    await expectTaskCallRunsItsAgent({ run_in_background: false });
  });

  async function expectTaskCallRunsItsAgent(extra: Record<string, unknown>): Promise<void> {
    const task = defineAgentTool({ name: 'Task', description: 'Runs a subagent', model: 'claude-sonnet-4-5' });
    const taskCall = { type: 'tool_use', id: 'toolu_t', name: 'Task', input: { description: 'Draft', prompt: 'draft it', subagent_type: 'Plan', model: 'haiku', ...extra } };
    const routed = routedModelCaller({ sdk: [{ content: [taskCall] as AssistantContentBlock[] }, text('done')], 'agent:Task': [text('the draft')] });
    const models = new Map<string, string>();
    const callModel = (async function* (request, options) {
      models.set(options.querySource, request.model);
      yield* routed(request, options);
    }) as ModelCaller;
    const { items, terminal } = await runQuery({ prompt: 'go', tools: [task], config: { model: 'claude-opus-4-1' }, deps: { callModel, clock: virtualClock(0), newId: counterIds('t') } });
    expect(terminal.reason).toBe('completed');
    const results = (items as Message[]).flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content.filter((b) => b.type === 'tool_result') : []));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_t', content: 'the draft' });
    expect(results[0].is_error).not.toBe(true);
    expect(models.get('agent:Task')).toBe('claude-sonnet-4-5');
  }
});
