/**
 * How deep subagents nest (issue #38): each subagent delegates again, four levels asked for. Observed: which of the
 * requests offer `Agent` (the main thread's, then each subagent's, deepest last) and each task's spawn depth.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

type Json = Record<string, any>;

const delegate = (id: string) => toolCall(id, 'Agent', { description: `Delegate ${id}`, prompt: 'Delegate this to another agent if you can, else say where you are.', subagent_type: 'general-purpose', run_in_background: false });

export const confNestedDepth: SdkProgram = {
  name: 'conf: how deep subagents nest',
  script: () => ({
    model: [delegate('toolu_d1'), delegate('toolu_d2'), delegate('toolu_d3'), delegate('toolu_d4'), text('Leaf.'), text('Three.'), text('Two.'), text('One.'), text('Done.')],
  }),
  async run({ options, api, observed }, seen) {
    for await (const message of query({
      prompt: 'Delegate as deep as you can.',
      options: { ...options, canUseTool: async (_name, toolInput) => ({ behavior: 'allow', updatedInput: toolInput }) },
    })) seen.push(message);
    observed.offersAgent = api.log.map((r) => ((r.body as { tools?: Array<{ name: string }> }).tools ?? []).some((t) => t.name === 'Agent'));
    observed.started = seen.filter((m) => m.type === 'system' && (m as Json).subtype === 'task_started').map((m) => [(m as Json).tool_use_id, (m as Json).spawn_depth]);
    observed.toolResults = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content.filter((b: Json) => b.type === 'tool_result').map((b: Json) => ({ id: b.tool_use_id, is_error: b.is_error === true, text: JSON.stringify(b.content).slice(0, 200) })) : []));
  },
};

/** The same with the SDK's `forwardSubagentText`: every subagent's own messages are shown, the nested ones' too. */
export const confNestedForwarded: SdkProgram = {
  ...confNestedDepth,
  name: 'conf: how deep subagents nest, their messages forwarded',
  async run(context, seen) {
    await confNestedDepth.run({ ...context, options: { ...context.options, forwardSubagentText: true } }, seen);
  },
};
