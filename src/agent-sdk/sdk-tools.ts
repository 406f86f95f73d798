/**
 * The built-in tools an SDK program expects, under Claude Code's names and input shapes: Read, Write, Edit, Glob,
 * Grep and Bash working in the session's directory, and Task (a subagent with the others). `--tools` selects among
 * them (`default` or absent: all); a name in `--disallowedTools` without a pattern removes that tool, as Claude
 * Code removes it. A name we do not have is returned in `unknown` (reported in `init` and on stderr).
 */
import { defineAgentTool } from '../agents/define-agent-tool.ts';
import type { Tool } from '../effects/tools/define-tool.ts';
import { createBashTool } from '../tools/bash.ts';
import { createEditTool, createGlobTool, createGrepTool, createReadTool } from '../tools/index.ts';
import { createWriteTool } from '../tools/write.ts';

export const BUILTIN_TOOL_NAMES = ['Task', 'Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write'] as const;

export interface SdkToolSelection {
  tools: Tool[];
  /** Names the program asked for that turnloop does not have. */
  unknown: string[];
}

function taskSystemPrompt(root: string): string {
  return [
    'You are a subagent of a coding agent. You get one task; do it with the tools below and nothing else.',
    `The working directory is ${root}. When you are done, answer with what you found or changed, concretely:`,
    'your answer is all the agent that started you will see.',
  ].join('\n');
}

export function selectSdkTools(options: { root: string; tools?: readonly string[]; disallowedTools: readonly string[] }): SdkToolSelection {
  const { root } = options;
  const files: Record<string, Tool> = {
    Bash: createBashTool({ root }),
    Glob: createGlobTool(root),
    Grep: createGrepTool(root),
    Read: createReadTool(root),
    Edit: createEditTool(root),
    Write: createWriteTool(root),
  };
  const removed = new Set(options.disallowedTools.filter((rule) => !rule.includes('(')));
  const asked = options.tools === undefined || options.tools.includes('default') ? [...BUILTIN_TOOL_NAMES] : [...options.tools];
  const unknown = asked.filter((name) => !(BUILTIN_TOOL_NAMES as readonly string[]).includes(name) && name !== 'default' && name !== 'Agent');
  const chosen = asked.filter((name) => !removed.has(name));
  const childTools = Object.entries(files).filter(([name]) => chosen.includes(name)).map(([, tool]) => tool);
  const tools: Tool[] = [];
  if (chosen.includes('Task') || chosen.includes('Agent')) {
    tools.push(defineAgentTool({
      name: 'Task',
      description: 'Starts a subagent with the same tools to do one self-contained task and returns its final answer. Several Task calls in one reply run at the same time.',
      systemPrompt: taskSystemPrompt(root),
      tools: childTools,
    }));
  }
  for (const name of BUILTIN_TOOL_NAMES) if (name !== 'Task' && chosen.includes(name)) tools.push(files[name]);
  return { tools, unknown };
}
