/**
 * "Always allow" for compound and multi-word commands: the rules each `can_use_tool` prompt suggests (claude
 * 2.1.334: one `addRules` with a rule per command; a program and its subcommand as a prefix rule,
 * `git init *`), applied with `settingSources: ['local']`, so a later command the prefix rule covers is not asked for
 * and the rules are written to `.claude/settings.local.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

// No `cd`: claude's Bash keeps the directory a command changed to for the next call, turnloop's does not.
const COMMANDS = ['mkdir -p build && touch build/x.txt', 'git init -q first', 'git init -q second'];

export const settingsCompoundSuggestions: SdkProgram = {
  name: 'always allow for compound and multi-word commands',
  script: () => ({ model: [...COMMANDS.map((command, i) => toolCall(`toolu_${i}`, 'Bash', { command, description: 'Run a command' })), text('Done.')] }),
  async run({ options, dirs, observed }, seen) {
    const asked: Array<{ command: string; suggestions: PermissionUpdate[] }> = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Make the build folder and two repositories.',
        options: {
          ...options,
          settingSources: ['local'],
          canUseTool: async (_tool, input, { suggestions = [] }) => {
            asked.push({ command: String(input.command), suggestions });
            return { behavior: 'allow', updatedInput: input, updatedPermissions: suggestions.filter((s) => s.type === 'addRules') };
          },
        },
      }),
      seen,
    );
    const settings = join(dirs.cwd, '.claude', 'settings.local.json');
    observed.settingsLocal = existsSync(settings) ? JSON.parse(readFileSync(settings, 'utf8')) : null;
    observed.ran = ['build/x.txt', 'first/.git', 'second/.git'].map((path) => existsSync(join(dirs.cwd, path)));
  },
};
