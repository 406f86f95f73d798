/**
 * The SDK's `settings` option (the flag-settings layer: `--settings <json or path>`), as claude 2.1.334 applies it
 * (docs/agent-sdk-conformance.md): an inline object or a file path whose `permissions` allow one command unasked and
 * deny another unasked, whose `env` reaches Bash and the command hooks, and whose PreToolUse command hook runs; its
 * `defaultMode` wins over the project settings file's. A bad value (a path to no file, JSON that does not parse)
 * ends the query with the executable's error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const HOOK_SCRIPT = `#!/bin/sh
input=$(cat)
case "$input" in
  *PreToolUse*) printf '%s|' "$CONF_FLAG" >> "$CLAUDE_PROJECT_DIR/hook-seen.txt";;
esac
`;

const SETTINGS = {
  permissions: { allow: ['Bash(touch allowed.txt)'], deny: ['Bash(rm:*)'] },
  env: { CONF_FLAG: 'from-flag-settings' },
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command: '"$CLAUDE_PROJECT_DIR"/hook.sh' }] }] },
};

function confSettingsProgram(name: string, as: 'object' | 'path' | 'json-text'): SdkProgram {
  return {
    name,
    script: () => ({
      model: [
        toolCall('toolu_touch', 'Bash', { command: 'touch allowed.txt', description: 'Create a file' }),
        toolCall('toolu_rm', 'Bash', { command: 'rm -f gone.txt', description: 'Remove a file' }),
        toolCall('toolu_env', 'Bash', { command: 'printf %s "$CONF_FLAG" > env.txt', description: 'Write a file' }),
        text('Done.'),
      ],
    }),
    async run({ options, dirs, observed }, seen) {
      writeFileSync(join(dirs.cwd, 'hook.sh'), HOOK_SCRIPT, { mode: 0o755 });
      writeFileSync(join(dirs.cwd, 'gone.txt'), '');
      const settingsPath = join(dirs.configDir, 'flag-settings.json');
      writeFileSync(settingsPath, JSON.stringify(SETTINGS));
      const settings = as === 'object' ? SETTINGS : as === 'path' ? settingsPath : JSON.stringify(SETTINGS);
      const asked: string[] = [];
      observed.asked = asked;
      await drain(
        query({
          prompt: 'Create allowed.txt, remove gone.txt, write env.txt.',
          options: {
            ...options,
            settingSources: [],
            settings,
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
      observed.env = existsSync(join(dirs.cwd, 'env.txt')) ? readFileSync(join(dirs.cwd, 'env.txt'), 'utf8') : null;
      observed.hookSeen = existsSync(join(dirs.cwd, 'hook-seen.txt')) ? readFileSync(join(dirs.cwd, 'hook-seen.txt'), 'utf8') : null;
      const result = seen.find((m) => m.type === 'result') as { permission_denials?: Array<{ tool_name: string }> } | undefined;
      observed.denials = result?.permission_denials?.map((d) => d.tool_name) ?? null;
    },
  };
}

export const confSettingsObject = confSettingsProgram('settings as an object: permissions, env and a command hook', 'object');
export const confSettingsPath = confSettingsProgram('settings as a file path: permissions, env and a command hook', 'path');
export const confSettingsJsonText = confSettingsProgram('settings as JSON text: permissions, env and a command hook', 'json-text');

/** The flag settings' defaultMode wins over the project settings file's (a Write asked for in default mode runs unasked). */
export const confSettingsOverProject: SdkProgram = {
  name: 'settings: the flag settings win over the project settings file',
  script: () => ({ model: [toolCall('toolu_write', 'Write', { file_path: 'w.txt', content: 'w' }), text('Done.')] }),
  async run({ options, dirs, observed }, seen) {
    mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
    writeFileSync(join(dirs.cwd, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
    const asked: string[] = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Write w.txt.',
        options: {
          ...options,
          settingSources: ['project'],
          settings: { permissions: { defaultMode: 'acceptEdits' } },
          canUseTool: async (toolName, input) => {
            asked.push(toolName);
            return { behavior: 'deny', message: 'no' };
          },
        },
      }),
      seen,
    );
    observed.written = existsSync(join(dirs.cwd, 'w.txt'));
    const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { permissionMode?: string } | undefined;
    observed.initMode = init?.permissionMode ?? null;
  },
};

/** A bad `settings` value: the executable's error (the SDK throws it) or its `settings_not_in_effect` warning. */
function confSettingsBad(name: string, settings: (dirs: { cwd: string }) => string): SdkProgram {
  return {
    name,
    script: () => ({ model: [text('Hello.')] }),
    async run({ options, dirs, observed }, seen) {
      try {
        await drain(query({ prompt: 'Hi.', options: { ...options, settingSources: [], settings: settings(dirs) } }), seen);
        observed.threw = null;
      } catch (error) {
        observed.threw = (error as Error).message.split(dirs.cwd).join('<cwd>');
      }
      const result = seen.find((m) => m.type === 'result') as { subtype?: string; is_error?: boolean } | undefined;
      observed.result = result ? { subtype: result.subtype, isError: result.is_error } : null;
      const warning = seen.find((m) => m.type === 'system' && m.subtype === 'informational') as { tag?: string; level?: string; content?: string } | undefined;
      observed.warning = warning ? { tag: warning.tag, level: warning.level, content: warning.content?.split(dirs.cwd).join('<cwd>') } : null;
    },
  };
}

export const confSettingsMissingFile = confSettingsBad('settings: a path to no file', (dirs) => join(dirs.cwd, 'nowhere.json'));
export const confSettingsBadJson = confSettingsBad('settings: JSON text that does not parse', () => '{"permissions": ');
export const confSettingsBadField = confSettingsBad('settings: a permissions field of the wrong type', () => JSON.stringify({ permissions: { allow: 'Bash' } }));
export const confSettingsBadJsonFile = confSettingsBad('settings: a file that is not valid JSON', (dirs) => {
  writeFileSync(join(dirs.cwd, 'bad.json'), '{"permissions": ');
  return join(dirs.cwd, 'bad.json');
});
export const confSettingsBadJsonObject = confSettingsBad('settings: JSON text in braces that does not parse', () => '{"permissions": }');

/** The flag settings' `model`: with and without the program's own `model` option. */
function confSettingsModelProgram(name: string, withModelOption: boolean): SdkProgram {
  return {
    name,
    script: () => ({ model: [text('Hello.')] }),
    async run({ options, api, observed }, seen) {
      const { model: _model, ...rest } = options;
      await drain(query({ prompt: 'Hi.', options: { ...(withModelOption ? options : rest), settingSources: [], settings: { model: 'claude-haiku-4-5' } } }), seen);
      observed.requestModel = (api.log[0]?.body as { model?: string } | undefined)?.model ?? null;
      const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { model?: string } | undefined;
      observed.initModel = init?.model ?? null;
    },
  };
}

export const confSettingsModel = confSettingsModelProgram('settings: model, with no model option', false);
export const confSettingsModelUnder = confSettingsModelProgram('settings: model, under the program\'s model option', true);
