/**
 * §9.10 for trees of runs: a subagent that spawns subagents cannot loop forever. Whatever the budget and however
 * many copies of itself each subagent asks for per reply, the model calls actually made by all subagents of the
 * tree stay within the tree's budget, the root reaches one of the 10 terminals, and every tool_use it sent is
 * answered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineAgentTool, type AgentToolSpec } from '../../src/agents/define-agent-tool.ts';
import { runQuery } from '../../src/api/query.ts';
import type { ModelCaller, ModelStreamItem } from '../../src/data/deps.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import { counterIds, virtualClock } from '../../src/runtime/system-clock.ts';
import type { AssistantMessage, Message } from '../../src/messages/types.ts';
import { TERMINAL_REASONS } from '../../src/data/outcomes.ts';
import { pairingViolations } from './checks.ts';
import { propertyOptions } from './settings.ts';

/** The root asks for one subagent, then answers; every subagent reply asks for `fanOut` more of itself. */
function endlessTree(fanOut: number): ModelCaller & { agentCalls: number } {
  let ids = 0;
  let rootCalls = 0;
  const caller = async function* (request: Parameters<ModelCaller>[0], options: Parameters<ModelCaller>[1]): AsyncGenerator<ModelStreamItem> {
    const isAgent = options.querySource.startsWith('agent:');
    if (isAgent) caller.agentCalls += 1;
    else rootCalls += 1;
    const asks = isAgent || rootCalls === 1;
    const content = asks
      ? Array.from({ length: isAgent ? fanOut : 1 }, () => ({ type: 'tool_use' as const, id: `toolu_${++ids}`, name: 'Recurse', input: { prompt: 'go deeper' } }))
      : [{ type: 'text' as const, text: 'done' }];
    const id = `msg_${++ids}`;
    for (const [i, block] of content.entries()) {
      const message: AssistantMessage = { type: 'assistant', uuid: `${id}:${i}`, message: { id, role: 'assistant', model: request.model, content: [block], stop_reason: null } };
      yield { kind: 'event', event: { type: 'model_message', message } };
    }
    yield { kind: 'event', event: { type: 'model_done', stopReason: asks ? 'tool_use' : 'end_turn' } };
  } as unknown as ModelCaller & { agentCalls: number };
  caller.agentCalls = 0;
  return caller;
}

function recursiveAgent(): Tool {
  const spec: AgentToolSpec & { tools: Tool[] } = { name: 'Recurse', description: 'runs itself again', tools: [] };
  const tool = defineAgentTool(spec);
  spec.tools.push(tool);
  return tool;
}

describe('§9.10 for trees of runs', () => {
  it('bounds the model calls of every subagent of a tree by the tree budget', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), async (budget, fanOut) => {
        const callModel = endlessTree(fanOut);
        const { items, terminal } = await runQuery({
          prompt: 'start',
          tools: [recursiveAgent()],
          agents: { maxModelCalls: budget },
          deps: { callModel, clock: virtualClock(0), newId: counterIds('p') },
        });
        expect(callModel.agentCalls).toBeLessThanOrEqual(budget);
        expect(TERMINAL_REASONS).toContain(terminal.reason);
        const messages = items.filter((i): i is Message => i.type === 'assistant' || i.type === 'user');
        expect(pairingViolations(messages)).toEqual([]);
      }),
      propertyOptions(25),
    );
  });
});
