/**
 * "Always allow" through `canUseTool`: the suggestions each prompt carries, and what applying them does. The program
 * answers each Bash prompt with its `localSettings` rule and the Write prompt with its suggestions (acceptEdits for
 * the session). With the suite's `settingSources: []` the rule is written to `.claude/settings.local.json` but not
 * applied (the same command is asked for again), while the session's acceptEdits lets the Edit run unasked.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const alwaysAllow: SdkProgram = {
  name: 'canUseTool answering with updatedPermissions (always allow)',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_touch_1', 'Bash', { command: 'touch notes.txt', description: 'Create notes' }),
      toolCall('toolu_touch_2', 'Bash', { command: 'touch notes.txt', description: 'Touch notes again' }),
      toolCall('toolu_write_1', 'Write', { file_path: join(cwd, 'plan.md'), content: 'one\n' }),
      toolCall('toolu_edit_1', 'Edit', { file_path: join(cwd, 'plan.md'), old_string: 'one', new_string: 'two' }),
      text('All done.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'plan.md'), '');
    const asked: string[] = [];
    const localRules: PermissionUpdate[] = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Create notes.txt twice, then write and edit plan.md.',
        options: {
          ...options,
          canUseTool: async (toolName, input, { suggestions = [] }) => {
            asked.push(toolName);
            // Bash: only the rule for the settings file (claude also offers a session directory turnloop does not).
            const chosen = toolName === 'Bash' ? suggestions.filter((s) => s.type === 'addRules' && s.destination === 'localSettings') : suggestions;
            if (toolName === 'Bash') localRules.push(...chosen);
            else observed.writeSuggestions = suggestions;
            return { behavior: 'allow', updatedInput: input, updatedPermissions: chosen };
          },
        },
      }),
      seen,
    );
    observed.bashRuleSuggested = localRules;
    const settings = join(dirs.cwd, '.claude', 'settings.local.json');
    observed.settingsLocal = existsSync(settings) ? JSON.parse(readFileSync(settings, 'utf8')) : null;
    observed.plan = readFileSync(join(dirs.cwd, 'plan.md'), 'utf8');
    observed.notes = existsSync(join(dirs.cwd, 'notes.txt'));
  },
};
