/**
 * `defineAgentTool`: a tool whose call runs a subagent, a child loop with its own prompt, tools and transcript
 * (Claude Code's Task tool). The model gives it a task (`prompt`); the child runs with `querySource:
 * 'agent:<name>'` under the parent's abort signal, and its final assistant text becomes the tool result. A child
 * that ends in a failure terminal, on an API error or without a text answer gives an error result that says so.
 *
 * Agent tools are concurrency-safe by default, so several in one reply run at once, as in Claude Code.
 *
 * @example
 * const explorer = defineAgentTool({
 *   name: 'Explore', description: 'Searches the code base and reports what it found',
 *   systemPrompt: 'You explore code. Answer with file paths and line numbers.',
 *   tools: createFileTools({ root }), maxTurns: 20,
 * });
 * for await (const item of query({ prompt: 'Where is auth handled?', tools: [explorer] })) print(item);
 */
import { z } from 'zod';
import type { ConfigOverrides } from '../config/config.ts';
import type { ChildRunRequest, ChildRunResult } from '../tools/child-runs.ts';
import type { BackgroundLauncher } from './background-agents.ts';
import { defineTool, type Tool, type ToolCallResult } from '../tools/define-tool.ts';

export interface AgentToolSpec {
  name: string;
  description: string;
  /** The subagent's system prompt. */
  systemPrompt?: string | string[];
  /** Text put before the model's task in the child's first user message (e.g. standing instructions). */
  prompt?: string;
  tools?: readonly Tool[];
  /** The child's model (shorthand for `config.model`). */
  model?: string;
  /** Stop the child after this many model turns (0 or absent: no limit of its own; the tree budget still holds). */
  maxTurns?: number;
  config?: ConfigOverrides;
  /** Whether the agent only reads (its tools change nothing): then no permission prompt asks for it. Default false. */
  readOnly?: boolean;
  /** Whether two calls may run at once (default true). */
  concurrencySafe?: boolean;
  /**
   * Opt-in (Extension `backgroundAgentTool`): a call with `run_in_background: true` starts the agent and returns at
   * once with the launcher's text; its report reaches the loop as a notification (`createBackgroundAgents()`: through
   * its `collectAttachments`, which the run must be given, `query({ deps: { collectAttachments } })`). Absent: every
   * call runs to its end.
   */
  background?: BackgroundLauncher;
}

const agentFields = {
  prompt: z.string().min(1).describe('The task for the agent: what to do and what to report back'),
  description: z.string().optional().describe('A short (3-5 word) description of the task'),
  // Extension `agentToolTaskInput`: Claude Code's Task tool takes these too, so its recorded calls (imported
  // transcripts) validate. This tool is one agent with its own model: they are accepted and not acted on.
  subagent_type: z.string().optional().describe('The kind of agent to use (this tool is one agent: informational)'),
  model: z.string().optional().describe("A model for the agent (this tool runs its own model: informational)"),
};

// Claude Code 2.1.33x's Task also takes `run_in_background`. The model is told what this tool does with it: without
// `background` the call waits for the agent's report, as in the original loop.
const agentInput = z.strictObject({
  ...agentFields,
  run_in_background: z.boolean().optional().describe('Claude Code may run the agent in the background; this tool always runs it to its end'),
});
const backgroundAgentInput = z.strictObject({
  ...agentFields,
  run_in_background: z.boolean().optional().describe('Run the agent in the background: the call returns at once and its report arrives later as a notification'),
});

export function defineAgentTool(spec: AgentToolSpec): Tool<z.output<typeof agentInput>> {
  const systemPrompt = spec.systemPrompt === undefined ? undefined : typeof spec.systemPrompt === 'string' ? [spec.systemPrompt] : spec.systemPrompt;
  const config: ConfigOverrides = { ...(spec.config ?? {}), ...(spec.model ? { model: spec.model } : {}) };
  return defineTool({
    name: spec.name,
    description: spec.description,
    inputSchema: spec.background ? backgroundAgentInput : agentInput,
    isConcurrencySafe: () => spec.concurrencySafe ?? true,
    isReadOnly: () => spec.readOnly === true,
    interruptBehavior: 'cancel',
    async call(input, ctx): Promise<ToolCallResult> {
      if (!ctx.runChild) return { content: `${spec.name} can only run inside query(): no parent run to start a subagent from`, isError: true };
      const request: ChildRunRequest = {
        agent: spec.name,
        prompt: spec.prompt ? `${spec.prompt}\n\n${input.prompt}` : input.prompt,
        ...(systemPrompt ? { systemPrompt } : {}),
        ...(spec.tools ? { tools: spec.tools } : {}),
        ...(spec.maxTurns ? { maxTurns: spec.maxTurns } : {}),
        config,
      };
      if (input.run_in_background === true && spec.background) {
        const launched = ctx.runChild(request);
        return { content: spec.background.launch({ toolUseId: ctx.toolUseId, description: input.description ?? spec.name, result: launched }) };
      }
      return agentToolResult(spec.name, await ctx.runChild(request));
    },
  });
}

/** The parent's tool result for a finished child: its answer, or what went wrong. */
export function agentToolResult(name: string, result: ChildRunResult): ToolCallResult {
  const { terminal, finalText } = result;
  const apiError = terminal.reason === 'completed' ? terminal.apiError : undefined;
  if (terminal.reason === 'completed' && !apiError && finalText !== null) return { content: finalText };
  const why = apiError
    ? `it stopped on an API error: ${apiError.text}`
    : terminal.reason === 'completed'
      ? 'it finished without a text answer'
      : `it ended with ${terminal.reason}${terminal.reason.startsWith('aborted') ? ' (the run was interrupted)' : ''}`;
  const partial = finalText ? `\nIts last answer before that:\n${finalText}` : '';
  return { content: `The ${name} agent did not complete its task: ${why}.${partial}`, isError: true };
}
