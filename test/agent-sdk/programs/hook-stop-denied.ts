/** A PreToolUse hook answers `continue: false` on a call that is then denied: the stop is ignored, the turn goes on. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const hookStopsDeniedCall: SdkProgram = {
  name: 'a PreToolUse hook that stops a denied call',
  script: () => ({
    model: [toolCall('toolu_bash_1', 'Bash', { command: 'touch stopped.txt', description: 'Create a file' }), text('The command was refused.')],
  }),
  async run({ options, dirs, observed }, seen) {
    const stop: HookCallback = async () => ({ continue: false, stopReason: 'Stopped by policy.' });
    // No allowedTools and no canUseTool: the call is denied after the hook.
    await drain(query({ prompt: 'Create stopped.txt.', options: { ...options, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [stop] }] } } }), seen);
    observed.commandRan = existsSync(join(dirs.cwd, 'stopped.txt'));
  },
};
