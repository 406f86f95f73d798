/**
 * A subagent's shell (issue #38): the main thread moves into `sub`, a subagent runs `pwd`, moves deeper and runs
 * `pwd` again, then the main thread runs `pwd`. Observed: each result as the model got it (with its "Environment
 * update" reminder apart) and each PreToolUse and PostToolUse hook input's `cwd` and subagent (`agent_id`,
 * `agent_type`), with the run's directory written `<cwd>`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const bash = (id: string, command: string) => toolCall(id, 'Bash', { command, description: 'Run a command' });

export const confSubagentShell: SdkProgram = {
  name: 'conf: a subagent\'s shell starts where the main thread\'s is and keeps its own cd',
  script: () => ({
    model: [
      bash('toolu_cd', 'cd sub && pwd'),
      toolCall('toolu_agent', 'Agent', { description: 'Look around', prompt: 'Look around.', subagent_type: 'general-purpose', run_in_background: false }),
      bash('toolu_sub_pwd', 'pwd'),
      bash('toolu_sub_cd', 'cd deeper && pwd'),
      bash('toolu_sub_again', 'pwd'),
      text('Looked around.'),
      bash('toolu_main_pwd', 'pwd'),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed, api }, seen) {
    mkdirSync(join(dirs.cwd, 'sub', 'deeper'), { recursive: true });
    const hookInputs: Record<string, string[]> = {};
    const record: HookCallback = async (input) => {
      const { tool_use_id: id, cwd, agent_id: agentId, agent_type: agentType, hook_event_name: event } = input as { tool_use_id?: string; cwd?: string; agent_id?: unknown; agent_type?: unknown; hook_event_name?: string };
      const who = typeof agentId === 'string' && /^a[0-9a-f]{16}$/.test(agentId) ? ` by ${String(agentType)}` : '';
      if (id) (hookInputs[id] ??= []).push(`${event} in ${String(cwd).replaceAll(dirs.cwd, '<cwd>')}${who}`);
      return {};
    };
    for await (const message of query({
      prompt: 'Walk around.',
      options: { ...options, hooks: { PreToolUse: [{ hooks: [record] }], PostToolUse: [{ hooks: [record] }] }, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
    })) seen.push(message);
    const results: Record<string, unknown> = {};
    for (const request of api.log) {
      for (const m of (request.body as { messages?: Array<{ content: unknown }> }).messages ?? []) {
        if (!Array.isArray(m.content)) continue;
        for (const block of m.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
          if (block.type !== 'tool_result' || block.tool_use_id === 'toolu_agent') continue;
          const whole = typeof block.content === 'string' ? block.content : ((block.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
          const [output = '', ...reminders] = whole.replaceAll(dirs.cwd, '<cwd>').split('\n\n<system-reminder>');
          results[block.tool_use_id ?? ''] = { output, updates: reminders.filter((r) => r.includes('Environment update')).length };
        }
      }
    }
    observed.results = results;
    observed.hookInputs = hookInputs;
  },
};
