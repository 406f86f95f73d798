/**
 * Permission rules read from settings files: an allow rule in `.claude/settings.local.json` and a deny rule in
 * `.claude/settings.json`, read by the sources `settingSources` names. With `['local', 'project']` the allowed
 * command runs unasked and the denied one is refused unasked; with `['local']` only the deny rule's file is left
 * out. A bad file (invalid JSON, a rule that is not a string) is reported after `system/init` and left out, as
 * claude 2.1.334 does (the whole file, or the entry alone).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type SettingSource } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

function settingsRulesProgram(name: string, settingSources: SettingSource[], files: { local?: string; project?: string; user?: string }): SdkProgram {
  return {
    name,
    script: () => ({
      model: [
        toolCall('toolu_touch', 'Bash', { command: 'touch allowed.txt', description: 'Create a file' }),
        toolCall('toolu_rm', 'Bash', { command: 'rm -f gone.txt', description: 'Remove a file' }),
        text('Done.'),
      ],
    }),
    async run({ options, dirs, observed }, seen) {
      mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
      if (files.local !== undefined) writeFileSync(join(dirs.cwd, '.claude', 'settings.local.json'), files.local);
      if (files.project !== undefined) writeFileSync(join(dirs.cwd, '.claude', 'settings.json'), files.project);
      if (files.user !== undefined) writeFileSync(join(dirs.configDir, 'settings.json'), files.user);
      writeFileSync(join(dirs.cwd, 'gone.txt'), '');
      const asked: string[] = [];
      observed.asked = asked;
      await drain(
        query({
          prompt: 'Create allowed.txt, then remove gone.txt.',
          options: {
            ...options,
            settingSources,
            canUseTool: async (_toolName, input) => {
              asked.push(String(input.command));
              return { behavior: 'allow', updatedInput: input };
            },
          },
        }),
        seen,
      );
      observed.allowedWritten = existsSync(join(dirs.cwd, 'allowed.txt'));
      observed.goneRemoved = !existsSync(join(dirs.cwd, 'gone.txt'));
      const warning = seen.find((m) => m.type === 'system' && m.subtype === 'informational') as { tag?: string; level?: string; content?: string } | undefined;
      observed.warning = warning ? { tag: warning.tag, level: warning.level, namesFile: warning.content?.includes(join(dirs.cwd, '.claude', 'settings.local.json')) } : null;
      const result = seen.find((m) => m.type === 'result') as { permission_denials?: Array<{ tool_name: string }> } | undefined;
      observed.denials = result?.permission_denials?.map((d) => d.tool_name) ?? null;
    },
  };
}

const RULES = { local: JSON.stringify({ permissions: { allow: ['Bash(touch allowed.txt)'] } }), project: JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) };

export const settingsRulesRead = settingsRulesProgram('permission rules from the settings files of settingSources', ['local', 'project'], RULES);
export const settingsRulesLocalOnly = settingsRulesProgram('settingSources local: the project settings file is not read', ['local'], RULES);
export const settingsFileInvalid = settingsRulesProgram('a settings file that is not valid JSON is left out with a warning', ['local', 'project'], { local: '{ "permissions": ', project: RULES.project });
export const settingsRuleNotString = settingsRulesProgram('a settings rule that is not a string is skipped with a warning', ['local', 'project'], { local: JSON.stringify({ permissions: { allow: [42, 'Bash(touch allowed.txt)'] } }), project: RULES.project });
