/**
 * `permissionMode: 'acceptEdits'`: a file edit (Write) and a plain filesystem command (`touch`) run without
 * asking; another command (`node -e`) is still asked for, and `canUseTool` denies it. A tool in `disallowedTools` (Glob) is not offered to the model at all.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const acceptEditsMode: SdkProgram = {
  name: 'acceptEdits mode and disallowedTools',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_write_1', 'Write', { file_path: join(cwd, 'edit.txt'), content: 'edited\n' }),
      toolCall('toolu_touch_1', 'Bash', { command: 'touch touched.txt', description: 'Create an empty file' }),
      // An interpreter, not one of the filesystem commands (touch, mkdir, ...) accepted in this mode.
      toolCall('toolu_bash_1', 'Bash', { command: `node -e "require('fs').writeFileSync('command-ran.txt', '')"`, description: 'Create a file' }),
      text('The edit went through; the command did not.'),
    ],
  }),
  async run({ options, dirs, api, observed }, seen) {
    const asked: string[] = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Edit a file, then run a command.',
        options: {
          ...options,
          permissionMode: 'acceptEdits',
          disallowedTools: ['Glob'],
          canUseTool: async (toolName) => {
            asked.push(toolName);
            return { behavior: 'deny', message: 'No commands.' };
          },
        },
      }),
      seen,
    );
    observed.edited = existsSync(join(dirs.cwd, 'edit.txt'));
    observed.touched = existsSync(join(dirs.cwd, 'touched.txt'));
    observed.commandRan = existsSync(join(dirs.cwd, 'command-ran.txt'));
    const tools = (api.log[0]?.body as { tools?: Array<{ name: string }> } | undefined)?.tools ?? [];
    observed.globOffered = tools.some((tool) => tool.name === 'Glob');
    observed.writeOffered = tools.some((tool) => tool.name === 'Write');
  },
};
