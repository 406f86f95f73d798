/** `canUseTool` allows one tool call (Write) and denies the next (Bash); the denial is an error tool_result. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const canUseToolAllowAndDeny: SdkProgram = {
  name: 'a tool call allowed and one denied by canUseTool',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_write_1', 'Write', { file_path: join(cwd, 'hello.txt'), content: 'hello\n' }),
      toolCall('toolu_bash_1', 'Bash', { command: 'touch never-run.txt', description: 'Create a file' }),
      text('Wrote the file; the command was refused.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    const asked: string[] = [];
    observed.asked = asked;
    await drain(
      query({
        prompt: 'Write hello.txt, then run a command.',
        options: {
          ...options,
          canUseTool: async (toolName, input) => {
            asked.push(toolName);
            return toolName === 'Write'
              ? { behavior: 'allow', updatedInput: input }
              : { behavior: 'deny', message: 'The user refused this command.' };
          },
        },
      }),
      seen,
    );
    observed.written = existsSync(join(dirs.cwd, 'hello.txt'));
    observed.deniedCommandRan = existsSync(join(dirs.cwd, 'never-run.txt'));
  },
};
