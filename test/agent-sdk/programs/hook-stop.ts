/** A PreToolUse hook answers `continue: false`: the tool never runs and the turn ends, reported as a success. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const hookStopsTurn: SdkProgram = {
  name: 'a PreToolUse hook that stops the turn',
  script: () => ({
    model: [toolCall('toolu_bash_1', 'Bash', { command: 'touch stopped.txt', description: 'Create a file' }), text('Never asked for.')],
  }),
  async run({ options, dirs, observed }, seen) {
    const hookCalls: string[] = [];
    observed.hookCalls = hookCalls;
    const stop: HookCallback = async (input) => {
      hookCalls.push(`${input.hook_event_name}:${'tool_name' in input ? input.tool_name : ''}`);
      return { continue: false, stopReason: 'Stopped by policy.' };
    };
    await drain(
      query({ prompt: 'Create stopped.txt.', options: { ...options, allowedTools: ['Bash'], hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [stop] }] } } }),
      seen,
    );
    observed.commandRan = existsSync(join(dirs.cwd, 'stopped.txt'));
  },
};
