/**
 * Command hooks, `env` and `permissions.additionalDirectories` from settings files, as claude 2.1.334 applies them
 * (docs/agent-sdk-conformance.md). A PreToolUse command hook on Bash records its input, denies `rm` by exiting 2,
 * exits 1 (a non-blocking error) on one command and answers JSON `additionalContext` on the others; a PostToolUse
 * hook answers `additionalContext`. A hook that outlives its `timeout` is killed and the call goes on, with claude's
 * `hook_no_verdict` warning. The settings' `env` is over the process's for hooks and Bash; a relative
 * `additionalDirectories` entry is resolved against the working directory.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

/** Records each input as hook-<n>.json (and what it sees of its environment), then answers by what it was given. */
const HOOK_SCRIPT = `#!/bin/sh
input=$(cat)
n=$(ls "$CLAUDE_PROJECT_DIR"/hook-*.json 2>/dev/null | wc -l)
printf '%s' "$input" > "$CLAUDE_PROJECT_DIR/hook-$n.json"
printf '%s|%s|%s' "$PWD" "$CLAUDE_PROJECT_DIR" "$FOO" > "$CLAUDE_PROJECT_DIR/hook-env-$n.txt"
case "$input" in
  *PreToolUse*'rm -f'*) echo "removing is not allowed here" >&2; exit 2;;
  *PreToolUse*sleepy*) sleep 30;;
  *'false-exit'*) echo "a hook that failed" >&2; exit 1;;
  *PostToolUse*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post-hook context"}}';;
  *) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"pre-hook context"}}';;
esac
`;

function writeSettings(cwd: string, file: string, settings: unknown): void {
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  writeFileSync(join(cwd, '.claude', file), JSON.stringify(settings));
}

function requestText(api: { log: Array<{ body: unknown }> }): string {
  return JSON.stringify(api.log.at(-1)?.body ?? {});
}

export const settingsCommandHooks: SdkProgram = {
  name: 'command hooks from the project settings file',
  script: () => ({
    model: [
      toolCall('toolu_touch', 'Bash', { command: 'touch a.txt', description: 'Create a file' }),
      toolCall('toolu_rm', 'Bash', { command: 'rm -f gone.txt', description: 'Remove a file' }),
      toolCall('toolu_echo', 'Bash', { command: 'echo false-exit > b.txt', description: 'Write a file' }),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed, api }, seen) {
    writeFileSync(join(dirs.cwd, 'hook.sh'), HOOK_SCRIPT, { mode: 0o755 });
    writeFileSync(join(dirs.cwd, 'gone.txt'), '');
    writeSettings(dirs.cwd, 'settings.json', {
      env: { FOO: 'from-settings' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hook.sh', timeout: 20 }] }],
        PostToolUse: [{ matcher: 'Read|Bash', hooks: [{ type: 'command', command: './hook.sh' }] }],
      },
    });
    await drain(
      query({
        prompt: 'Create a.txt, remove gone.txt, write b.txt.',
        options: { ...options, env: { ...options.env, FOO: 'from-process' }, settingSources: ['project'], canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
      }),
      seen,
    );
    const inputs = readdirSync(dirs.cwd).filter((f) => /^hook-\d+\.json$/.test(f)).sort((a, b) => parseInt(a.slice(5)) - parseInt(b.slice(5)));
    observed.hookInputs = inputs.map((f) => {
      const input = JSON.parse(readFileSync(join(dirs.cwd, f), 'utf8'));
      return { event: input.hook_event_name, tool: input.tool_name, command: input.tool_input?.command, toolUseId: input.tool_use_id, cwd: input.cwd === dirs.cwd, session: typeof input.session_id === 'string', response: input.tool_response !== undefined };
    });
    observed.hookEnv = [...new Set(readdirSync(dirs.cwd).filter((f) => f.startsWith('hook-env-')).map((f) => readFileSync(join(dirs.cwd, f), 'utf8').replaceAll(dirs.cwd, '<cwd>')))];
    observed.files = { a: existsSync(join(dirs.cwd, 'a.txt')), gone: existsSync(join(dirs.cwd, 'gone.txt')), b: existsSync(join(dirs.cwd, 'b.txt')) };
    const sent = requestText(api);
    observed.contextReachedModel = { pre: sent.includes('pre-hook context'), post: sent.includes('post-hook context'), reasonOfDenial: sent.includes('removing is not allowed here'), failedHookStderr: sent.includes('a hook that failed') };
    const result = seen.find((m) => m.type === 'result') as { permission_denials?: Array<{ tool_use_id: string }>; subtype?: string } | undefined;
    observed.result = { subtype: result?.subtype, denials: result?.permission_denials?.map((d) => d.tool_use_id) };
  },
};

export const settingsHookTimeout: SdkProgram = {
  name: 'a settings command hook that outlives its timeout',
  script: () => ({ model: [toolCall('toolu_sleepy', 'Bash', { command: 'echo sleepy > c.txt', description: 'Write a file' }), text('Done.')] }),
  async run({ options, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'hook.sh'), HOOK_SCRIPT, { mode: 0o755 });
    writeSettings(dirs.cwd, 'settings.local.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hook.sh', timeout: 1 }] }] } });
    const started = Date.now();
    await drain(query({ prompt: 'Write c.txt.', options: { ...options, settingSources: ['local'], canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) } }), seen);
    observed.underTwentySeconds = Date.now() - started < 20_000;
    observed.written = existsSync(join(dirs.cwd, 'c.txt'));
    observed.warnings = seen.filter((m) => m.type === 'system' && m.subtype === 'informational').map((m) => {
      const { tag, level, hook_no_verdict } = m as unknown as Record<string, unknown>;
      return { tag, level, hook_no_verdict };
    });
  },
};

export const settingsEnvAndDirectories: SdkProgram = {
  name: 'env and permissions.additionalDirectories from the local settings file',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_env', 'Bash', { command: 'printf "%s|%s|%s" "$FOO" "$BAR" "$CLAUDE_PROJECT_DIR" > env.txt', description: 'Write the environment' }),
      toolCall('toolu_read', 'Read', { file_path: join(cwd, '..', `${basename(cwd)}-shared`, 'notes.txt') }),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    const shared = join(dirs.cwd, '..', `${basename(dirs.cwd)}-shared`);
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'notes.txt'), 'shared notes\n');
    writeSettings(dirs.cwd, 'settings.local.json', { env: { FOO: 'from-settings', BAR: 2 }, permissions: { additionalDirectories: [`../${basename(shared)}`] } });
    const asked: string[] = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Write env.txt, then read the shared notes.',
        options: { ...options, env: { ...options.env, FOO: 'from-process' }, settingSources: ['local'], canUseTool: async (tool, input) => {
          asked.push(tool);
          return { behavior: 'allow', updatedInput: input };
        } },
      }),
      seen,
    );
    observed.env = existsSync(join(dirs.cwd, 'env.txt')) ? readFileSync(join(dirs.cwd, 'env.txt'), 'utf8') : null;
    const read = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).find((b) => (b as { tool_use_id?: string }).tool_use_id === 'toolu_read') as { content?: unknown; is_error?: boolean } | undefined;
    observed.sharedRead = read ? { isError: read.is_error === true, text: JSON.stringify(read.content).includes('shared notes') } : null;
    const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { additional_directories?: string[] } | undefined;
    observed.initDirectories = init?.additional_directories ?? null;
  },
};

function badSettingsProgram(name: string, local: unknown, field: string): SdkProgram {
  return {
    name,
    script: () => ({ model: [toolCall('toolu_touch', 'Bash', { command: 'touch allowed.txt', description: 'Create a file' }), text('Done.')] }),
    async run({ options, dirs, observed }, seen) {
      writeSettings(dirs.cwd, 'settings.local.json', local);
      const asked: string[] = [];
      observed.asked = asked;
      await drain(query({ prompt: 'Create allowed.txt.', options: { ...options, settingSources: ['local'], canUseTool: async (_tool, input) => {
        asked.push(String(input.command));
        return { behavior: 'allow', updatedInput: input };
      } } }), seen);
      const warning = seen.find((m) => m.type === 'system' && m.subtype === 'informational') as { tag?: string; level?: string; content?: string } | undefined;
      observed.warning = warning ? { tag: warning.tag, level: warning.level, namesField: warning.content?.includes(`settings.local.json (${field}`) } : null;
    },
  };
}

const ALLOW = { allow: ['Bash(touch allowed.txt)'] };
export const settingsBadEnv = badSettingsProgram('settings env that is not an object: the file is left out with a warning', { env: 'FOO=1', permissions: ALLOW }, 'env');
export const settingsBadHooks = badSettingsProgram('settings hooks that are not an object: the field is left out with a warning', { hooks: 5, permissions: ALLOW }, 'hooks');
export const settingsBadHookEntry = badSettingsProgram('a settings command hook without a command: the file is left out with a warning', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] }, permissions: ALLOW }, 'hooks.PreToolUse.0.hooks.0');
export const settingsBadDirectories = badSettingsProgram('settings additionalDirectories that is not an array: the file is left out with a warning', { permissions: { ...ALLOW, additionalDirectories: 'shared' } }, 'permissions.additionalDirectories');

/** Stops once (exit 2 while `stop_hook_active` is false), adds prompt context as plain stdout, blocks after a Bash call. */
const EVENT_HOOK = `#!/bin/sh
input=$(cat)
case "$input" in
  *'"hook_event_name":"UserPromptSubmit"'*) echo "prompt-hook context";;
  *'"stop_hook_active":false'*) echo "stop-hook reason: say more" >&2; exit 2;;
  *'"hook_event_name":"PostToolUse"'*) echo "post-hook blocking reason" >&2; exit 2;;
esac
exit 0
`;

export const settingsEventHooks: SdkProgram = {
  name: 'UserPromptSubmit, PostToolUse and Stop command hooks from the user settings file',
  script: () => ({ model: [toolCall('toolu_touch', 'Bash', { command: 'touch a.txt', description: 'Create a file' }), text('First answer.'), text('Second answer.')] }),
  async run({ options, dirs, observed, api }, seen) {
    writeFileSync(join(dirs.configDir, 'event-hook.sh'), EVENT_HOOK, { mode: 0o755 });
    const command = join(dirs.configDir, 'event-hook.sh');
    writeFileSync(join(dirs.configDir, 'settings.json'), JSON.stringify({ hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }],
      Stop: [{ hooks: [{ type: 'command', command }] }],
    } }));
    await drain(query({ prompt: 'Create a.txt.', options: { ...options, settingSources: ['user'], canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) } }), seen);
    const bodies = api.log.map((entry) => JSON.stringify(entry.body));
    observed.requests = bodies.length;
    observed.promptContext = bodies.map((b) => b.includes('prompt-hook context'));
    observed.postReason = bodies.map((b) => b.includes('post-hook blocking reason'));
    observed.stopReason = bodies.map((b) => b.includes('stop-hook reason: say more'));
    observed.written = existsSync(join(dirs.cwd, 'a.txt'));
    const result = seen.find((m) => m.type === 'result') as { result?: string; num_turns?: number } | undefined;
    observed.result = { text: result?.result, turns: result?.num_turns };
  },
};
