/**
 * The subagent tool's name as an SDK program sees it (issue #38): a call named `Task` and one named `Agent`, each
 * running a subagent, with hooks on PreToolUse, PostToolUse, SubagentStart and SubagentStop recording their inputs
 * and `canUseTool` recording what it is asked. Claude 2.1.334 offers the tool as `Agent` and accepts `Task`.
 */
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const parityAgentTool: SdkProgram = {
  name: 'parity: the subagent tool named Task and Agent',
  script: () => ({
    model: [
      toolCall('toolu_task_1', 'Task', { description: 'Count files', prompt: 'Say how many files there are.', subagent_type: 'general-purpose', run_in_background: false }),
      text('There are no files.'),
      toolCall('toolu_agent_1', 'Agent', { description: 'Count dirs', prompt: 'Say how many folders there are.', subagent_type: 'general-purpose', run_in_background: false }),
      text('There are no folders.'),
      text('Done.'),
    ],
  }),
  async run({ options, api, observed }, seen) {
    const hookInputs: unknown[] = [];
    const record: HookCallback = async (input) => {
      hookInputs.push(input);
      return {};
    };
    const asked: unknown[] = [];
    const hooks = {
      PreToolUse: [{ matcher: 'Task', hooks: [record] }, { matcher: 'Agent', hooks: [record] }],
      PostToolUse: [{ hooks: [record] }],
      SubagentStart: [{ hooks: [record] }],
      SubagentStop: [{ hooks: [record] }],
    };
    for await (const message of query({
      prompt: 'Count files, then folders, with subagents.',
      options: {
        ...options,
        hooks,
        canUseTool: async (toolName, input, extra) => {
          asked.push({ toolName, input, toolUseID: extra.toolUseID });
          return { behavior: 'allow', updatedInput: input };
        },
      },
    })) seen.push(message);
    observed.hookInputs = hookInputs;
    observed.asked = asked;
    observed.requestTools = api.log.map((r) => ((r.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name).join(','));
  },
};
