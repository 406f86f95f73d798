/**
 * Permission rules read from settings files: an allow rule in `.claude/settings.local.json` and a deny rule in
 * `.claude/settings.json`, read by the sources `settingSources` names. With `['local', 'project']` the allowed
 * command runs unasked and the denied one is refused unasked; with `[]` (the SDK's default) both are asked.
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
      const result = seen.find((m) => m.type === 'result') as { permission_denials?: Array<{ tool_name: string }> } | undefined;
      observed.denials = result?.permission_denials?.map((d) => d.tool_name) ?? null;
    },
  };
}

const RULES = { local: JSON.stringify({ permissions: { allow: ['Bash(touch allowed.txt)'] } }), project: JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) };

export const settingsRulesRead = settingsRulesProgram('permission rules from the settings files of settingSources', ['local', 'project'], RULES);
export const settingsRulesNotRead = settingsRulesProgram('settings files of sources not given are not read', [], RULES);
export const settingsRulesLocalOnly = settingsRulesProgram('only local', ['local'], RULES);
export const settingsRulesUser = settingsRulesProgram('user settings', ['user'], { user: RULES.project });
export const settingsBadJson = settingsRulesProgram('invalid json', ['local', 'project'], { local: '{ "permissions": ', project: RULES.project });
export const settingsBadPermissions = settingsRulesProgram('permissions not an object', ['local', 'project'], { local: JSON.stringify({ permissions: ['Bash'] }), project: RULES.project });
export const settingsBadRule = settingsRulesProgram('a rule not a string', ['local', 'project'], { local: JSON.stringify({ permissions: { allow: [42, 'Bash(touch allowed.txt)'] } }), project: RULES.project });
export const settingsBadList = settingsRulesProgram('allow not an array', ['local', 'project'], { local: JSON.stringify({ permissions: { allow: 'Bash(touch allowed.txt)' } }), project: RULES.project });
export const settingsAsk = settingsRulesProgram('ask beats allow', ['local', 'project'], { local: RULES.local, project: JSON.stringify({ permissions: { ask: ['Bash(touch:*)'] } }) });
export const settingsModeDefault = settingsRulesProgram('defaultMode', ['project'], { project: JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }) });
