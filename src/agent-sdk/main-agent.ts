/**
 * `--agent <name>` (the SDK's `agent` option): the main thread runs as one of the program's agents (`initialize`'s
 * `agents`). As claude 2.1.334 (probed, test/agent-sdk/programs/conf-main-agent.ts): the agent's `prompt` follows
 * the session's system prompt, the tools offered (and listed in `init`) are the agent's `tools` when it names
 * them, less its `disallowedTools`, and the session's model stays the session's (a `--model` wins over the agent's
 * `model`). The StructuredOutput tool of `--json-schema` stays offered: the program asked for it. Pure.
 */
import type { Tool } from '../tools/define-tool.ts';
import type { SdkAgentDefinition } from './sdk-tools.ts';
import { STRUCTURED_OUTPUT_TOOL } from './structured-output.ts';
import { isSubagentToolName } from './subagent-tool-names.ts';

export interface MainAgentDefinition extends SdkAgentDefinition {
  disallowedTools?: string[];
}

/** Whether `names` names the tool (the subagent tool by either of its names). */
function names(list: readonly string[], tool: string): boolean {
  return list.includes(tool) || (isSubagentToolName(tool) && list.some(isSubagentToolName));
}

/** The main thread's tools as the agent has them. */
export function mainAgentTools(tools: readonly Tool[], agent: MainAgentDefinition): Tool[] {
  return tools.filter((tool) => tool.name === STRUCTURED_OUTPUT_TOOL || ((!agent.tools || names(agent.tools, tool.name)) && !names(agent.disallowedTools ?? [], tool.name)));
}

/** Absent, or an array of strings. */
function isNameList(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
}

/** The agent `--agent` names among the program's, or why it cannot be used. */
export function findMainAgent(name: string, agents: Readonly<Record<string, unknown>>): { agent: MainAgentDefinition } | { problem: string } {
  const known = Object.keys(agents);
  if (!Object.hasOwn(agents, name)) return { problem: `--agent ${name}: no such agent among the program's agents (${known.join(', ') || 'none'}); the main thread runs as itself` };
  const agent = agents[name];
  if (typeof agent !== 'object' || agent === null) return { problem: `--agent ${name}: the agent's definition is not an object; the main thread runs as itself` };
  // The definition comes as JSON from the program: a wrong type would fail each turn's tool list or system prompt.
  const { prompt, tools, disallowedTools } = agent as Record<string, unknown>;
  const wrong = prompt !== undefined && typeof prompt !== 'string' ? (['prompt', prompt, 'a string'] as const)
    : !isNameList(tools) ? (['tools', tools, 'an array of tool names'] as const)
    : !isNameList(disallowedTools) ? (['disallowedTools', disallowedTools, 'an array of tool names'] as const)
    : undefined;
  if (wrong) return { problem: `--agent ${name}: the agent's ${wrong[0]} is ${JSON.stringify(wrong[1])}, expected ${wrong[2]}; the main thread runs as itself` };
  return { agent: agent as MainAgentDefinition };
}
