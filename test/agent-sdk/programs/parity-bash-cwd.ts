/**
 * Bash's working directory across calls (issue #38): a `cd` into a subdirectory of the project is kept for the next
 * call, a subagent's Bash call, and a `cd` out of the project (claude resets to the project directory and says so
 * in the tool result). After the reset a relative path names a project file again. Every tool result's text is
 * observed with the run's directory written `<cwd>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const bash = (id: string, command: string) => toolCall(id, 'Bash', { command, description: 'Run a command' });

export const parityBashCwd: SdkProgram = {
  name: 'parity: Bash keeps its working directory across calls',
  script: () => ({
    model: [
      bash('toolu_cd', 'cd sub && pwd'),
      bash('toolu_pwd', 'pwd && cat here.txt'),
      toolCall('toolu_agent', 'Agent', { description: 'Where am I', prompt: 'Run pwd.', subagent_type: 'general-purpose', run_in_background: false }),
      bash('toolu_sub_pwd', 'pwd'),
      text('The subagent ran pwd.'),
      bash('toolu_pwd_after_agent', 'pwd'),
      bash('toolu_leave', 'cd /tmp && pwd'),
      bash('toolu_back', 'pwd && cat top.txt'),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed, api }, seen) {
    mkdirSync(join(dirs.cwd, 'sub'));
    writeFileSync(join(dirs.cwd, 'sub', 'here.txt'), 'in sub\n');
    writeFileSync(join(dirs.cwd, 'top.txt'), 'at the top\n');
    for await (const message of query({
      prompt: 'Walk around.',
      options: { ...options, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
    })) seen.push(message);
    // The results as the model was sent them (the subagent's included); the Agent call's hand-back is left out.
    const results: Record<string, unknown> = {};
    const environmentUpdates: Record<string, string[]> = {};
    for (const request of api.log) {
      for (const m of (request.body as { messages?: Array<{ content: unknown }> }).messages ?? []) {
        if (!Array.isArray(m.content)) continue;
        for (const block of m.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>) {
          if (block.type !== 'tool_result' || block.tool_use_id === 'toolu_agent') continue;
          // claude appends its `<system-reminder>`s to the tool's output (observed apart: the environment updates).
          const whole = typeof block.content === 'string' ? block.content : ((block.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
          const [content = '', ...rest] = whole.replaceAll(dirs.cwd, '<cwd>').split('\n\n<system-reminder>');
          const reminders = rest.filter((t) => t.includes('Environment update')).map((t) => `<system-reminder>${t}`.trim());
          if (reminders.length > 0) environmentUpdates[block.tool_use_id ?? ''] = reminders;
          results[block.tool_use_id ?? ''] = { content, is_error: block.is_error ?? false };
        }
      }
    }
    observed.results = results;
    observed.environmentUpdates = environmentUpdates;
  },
};
