/**
 * The subagent's id and what the hooks around it carry (issue #38): one reply starts a background subagent (the
 * program's `slow-counter`) and a foreground one. The background one's SubagentStart hook waits until the
 * foreground one's SubagentStop has been seen, so that a background task is running when the foreground subagent
 * stops (SubagentStop's `background_tasks`), whatever the timing. The hooks record their inputs (PostToolUse: the
 * Agent tool's `tool_response`, launch and report) and the program keeps the task messages and tool results.
 */
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

type Json = Record<string, any>;

export const parityAgentIds: SdkProgram = {
  name: 'parity: agent ids, a background task while a subagent stops',
  script: () => ({
    model: [
      {
        content: [
          { type: 'thinking', thinking: 'Calling Agent twice.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_bg', name: 'Agent', input: { description: 'Slow count', prompt: 'Count slowly.', subagent_type: 'slow-counter', run_in_background: true } },
          { type: 'tool_use', id: 'toolu_fg', name: 'Agent', input: { description: 'Quick count', prompt: 'Count quickly.', subagent_type: 'general-purpose', run_in_background: false } },
        ],
        stop_reason: 'tool_use',
      },
      text('Counted.'), // the foreground subagent's answer (the background one waits in its SubagentStart hook)
      // The main loop's next reply and the background subagent's answer, in either order; then the notification turn.
      text('Done.'),
      text('Done.'),
      text('Done.'),
    ],
  }),
  async run({ options, observed }, seen) {
    const hookInputs: Json[] = [];
    let foregroundStopped: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (foregroundStopped = resolve));
    const record: HookCallback = async (input) => {
      hookInputs.push(input as Json);
      if (input.hook_event_name === 'SubagentStop' && (input as Json).agent_type === 'general-purpose') foregroundStopped();
      if (input.hook_event_name === 'SubagentStart' && (input as Json).agent_type === 'slow-counter') {
        await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
      return {};
    };
    const hooks = { PostToolUse: [{ hooks: [record] }], SubagentStart: [{ hooks: [record] }], SubagentStop: [{ hooks: [record] }] };
    for await (const message of query({
      prompt: 'Count, in the background and now.',
      options: {
        ...options,
        hooks,
        agents: { 'slow-counter': { description: 'Counts slowly.', prompt: 'You count.', tools: ['Read'] } },
        canUseTool: async (_name, toolInput) => ({ behavior: 'allow', updatedInput: toolInput }),
      },
    })) seen.push(message);
    observed.hookInputs = hookInputs;
    observed.taskMessages = seen.filter((m) => m.type === 'system' && ['task_started', 'task_updated', 'task_notification', 'background_tasks_changed'].includes((m as Json).subtype));
    observed.toolResults = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content.filter((b: Json) => b.type === 'tool_result') : []));
    observed.userTexts = seen.flatMap((m) => (m.type === 'user' && m.parent_tool_use_id ? [{ parent: m.parent_tool_use_id, agent_id: (m as Json).agent_id }] : []));
  },
};

/**
 * A subagent that calls the subagent tool itself: claude 2.1.334 offers `Agent` to its subagents. The program records
 * each request's tools and the SubagentStart/SubagentStop inputs.
 */
export const parityNestedAgent: SdkProgram = {
  name: 'parity: a subagent that calls Agent',
  script: () => ({
    model: [
      toolCall('toolu_outer', 'Agent', { description: 'Delegate', prompt: 'Delegate the count to another agent.', subagent_type: 'general-purpose', run_in_background: false }),
      toolCall('toolu_inner', 'Agent', { description: 'Count', prompt: 'Count the files.', subagent_type: 'general-purpose', run_in_background: false }),
      text('There are no files.'), // the inner subagent
      text('The inner agent found no files.'), // the outer subagent
      text('Done.'),
    ],
  }),
  async run({ options, api, observed }, seen) {
    const hookInputs: Json[] = [];
    const record: HookCallback = async (input) => {
      hookInputs.push(input as Json);
      return {};
    };
    for await (const message of query({
      prompt: 'Count files through two agents.',
      options: { ...options, hooks: { SubagentStart: [{ hooks: [record] }], SubagentStop: [{ hooks: [record] }] }, canUseTool: async (_name, toolInput) => ({ behavior: 'allow', updatedInput: toolInput }) },
    })) seen.push(message);
    observed.hookInputs = hookInputs;
    observed.requestTools = api.log.map((r) => ((r.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name).join(','));
    observed.toolResults = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content.filter((b: Json) => b.type === 'tool_result').map((b: Json) => ({ id: b.tool_use_id, is_error: b.is_error === true, text: JSON.stringify(b.content).slice(0, 300) })) : []));
  },
};

/**
 * `prompt_id` across prompts: two user messages (each with a uuid of the program's), hooks on UserPromptSubmit,
 * PreToolUse and Stop recording their inputs.
 */
export const parityPromptIds: SdkProgram = {
  name: 'parity: prompt_id of hook inputs across two prompts',
  script: () => ({
    model: [toolCall('toolu_read', 'Read', { file_path: 'missing.txt' }), text('One.'), text('Two.')],
  }),
  async run({ options, observed }, seen) {
    const hookInputs: Json[] = [];
    const record: HookCallback = async (input) => {
      hookInputs.push(input as Json);
      return {};
    };
    let results = 0;
    let next: () => void = () => undefined;
    async function* input() {
      const uuids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'] as const;
      for (const [i, uuid] of uuids.entries()) {
        yield { type: 'user' as const, message: { role: 'user' as const, content: `Prompt ${i + 1}.` }, parent_tool_use_id: null, session_id: '', uuid };
        await new Promise<void>((resolve) => (next = resolve));
      }
    }
    for await (const message of query({
      prompt: input(),
      options: { ...options, hooks: { UserPromptSubmit: [{ hooks: [record] }], PreToolUse: [{ hooks: [record] }], Stop: [{ hooks: [record] }] }, canUseTool: async (_name, toolInput) => ({ behavior: 'allow', updatedInput: toolInput }) },
    })) {
      seen.push(message);
      if (message.type === 'result') {
        results += 1;
        next();
      }
    }
    observed.hookInputs = hookInputs.map((i) => ({ event: i.hook_event_name, prompt_id: i.prompt_id, effort: i.effort }));
  },
};
