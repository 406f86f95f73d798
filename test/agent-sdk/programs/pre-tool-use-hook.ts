/** A PreToolUse hook of the program denies a Read: the tool never runs, the model sees the reason. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const preToolUseHookDenies: SdkProgram = {
  name: 'a PreToolUse hook that denies',
  script: ({ cwd }) => ({
    model: [toolCall('toolu_read_1', 'Read', { file_path: join(cwd, 'secret.txt') }), text('The read was blocked by a hook.')],
  }),
  async run({ options, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'secret.txt'), 'do not read\n');
    const hookCalls: string[] = [];
    observed.hookCalls = hookCalls;
    const denyReads: HookCallback = async (input) => {
      hookCalls.push(`${input.hook_event_name}:${'tool_name' in input ? input.tool_name : ''}`);
      return {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Secrets stay closed.' },
      };
    };
    await drain(
      query({ prompt: 'Read secret.txt.', options: { ...options, hooks: { PreToolUse: [{ matcher: 'Read', hooks: [denyReads] }] } } }),
      seen,
    );
  },
};
