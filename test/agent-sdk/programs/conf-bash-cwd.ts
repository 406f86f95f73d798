/**
 * When claude 2.1.334 says the shell moved (issue #38): a `cd` into a subdirectory, a `cd .`, a `cd` there and back,
 * and a command that changes directory and then fails (its `cd` is not kept). Observed: each result as the model got
 * it, its "Environment update" reminder apart, with the run's directory written `<cwd>`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const bash = (id: string, command: string) => toolCall(id, 'Bash', { command, description: 'Run a command' });

export const confBashCwd: SdkProgram = {
  name: 'conf: when the Environment update reminder comes',
  script: () => ({
    model: [
      bash('toolu_cd', 'cd sub && pwd'),
      bash('toolu_same', 'cd . && pwd'),
      bash('toolu_there_and_back', 'cd .. && cd sub && pwd'),
      bash('toolu_cd_then_fail', 'cd deeper; false'),
      bash('toolu_where', 'pwd'),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed, api }, seen) {
    mkdirSync(join(dirs.cwd, 'sub', 'deeper'), { recursive: true });
    for await (const message of query({
      prompt: 'Walk around.',
      options: { ...options, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
    })) seen.push(message);
    const last = api.log.at(-1)?.body as { messages?: Array<{ content: unknown }> } | undefined;
    const results: Record<string, unknown> = {};
    for (const m of last?.messages ?? []) {
      if (!Array.isArray(m.content)) continue;
      for (const block of m.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>) {
        if (block.type !== 'tool_result') continue;
        const whole = typeof block.content === 'string' ? block.content : ((block.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
        // claude appends its other reminders (the token total) after the tool's output too: only the update is kept.
        const [output = '', ...reminders] = whole.replaceAll(dirs.cwd, '<cwd>').split('\n\n<system-reminder>');
        const update = reminders.filter((r) => r.includes('Environment update')).map((r) => `<system-reminder>${r}`.trim());
        results[block.tool_use_id ?? ''] = { output, is_error: block.is_error ?? false, update };
      }
    }
    observed.results = results;
  },
};
