/**
 * The `Task` tool of `turnloop run`: a general-purpose subagent, as Claude Code gives its main loop by default.
 * The child gets the run's file tools but no `Task` of its own (Claude Code's subagents cannot start subagents),
 * asks through the same permission prompt (children inherit `canUseTool`), and is recorded beside the run's log.
 */
import { defineAgentTool } from '../../agents/define-agent-tool.ts';
import type { Tool } from '../../tools/define-tool.ts';

export const TASK_TOOL_NAME = 'Task';

function taskSystemPrompt(root: string): string {
  return [
    'You are a subagent of a coding agent. You get one task; do it with the tools below and nothing else.',
    `The project root is ${root}; paths you pass to tools are relative to it.`,
    'When you are done, answer with what you found or changed, concretely (file paths, line numbers): your',
    'answer is all the agent that started you will see.',
  ].join('\n');
}

export function createTaskTool(root: string, tools: readonly Tool[]): Tool {
  return defineAgentTool({
    name: TASK_TOOL_NAME,
    description:
      'Starts a subagent with the same file tools to do one self-contained task (a search across many files, an ' +
      'investigation) and returns its final answer. Several Task calls in one reply run at the same time.',
    systemPrompt: taskSystemPrompt(root),
    tools,
  });
}
