/**
 * The program's hooks on every event of a one-tool turn: which events fire, in which order, for which tool, and a
 * UserPromptSubmit hook's `additionalContext` reaching the model. Nothing is blocked.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback, type HookEvent } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const EVENTS: HookEvent[] = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'];
const CONTEXT = 'Context added by the UserPromptSubmit hook.';

export const hookEvents: SdkProgram = {
  name: 'hooks on every event of a turn',
  script: ({ cwd }) => ({ model: [toolCall('toolu_read_1', 'Read', { file_path: join(cwd, 'notes.txt') }), text('Read it.')] }),
  async run({ options, dirs, api, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'some notes\n');
    const calls: string[] = [];
    observed.calls = calls;
    const record: HookCallback = async (input) => {
      calls.push(`${input.hook_event_name}${'tool_name' in input ? `:${input.tool_name}` : ''}`);
      if (input.hook_event_name === 'UserPromptSubmit') {
        return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: CONTEXT } };
      }
      return {};
    };
    const hooks = Object.fromEntries(EVENTS.map((event) => [event, [{ hooks: [record] }]]));
    await drain(query({ prompt: 'Read notes.txt.', options: { ...options, hooks } }), seen);
    observed.contextReachedModel = JSON.stringify(api.log[0]?.body ?? {}).includes(CONTEXT);
  },
};
