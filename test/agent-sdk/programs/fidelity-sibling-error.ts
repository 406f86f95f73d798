/**
 * A failed Bash and a Read in one reply (issue 39, item 1): the original's default path (runTools) cancels no
 * sibling on an error, so the Read runs and the model gets its content beside the Bash error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const fidelitySiblingAfterBashError: SdkProgram = {
  name: 'a failed Bash beside a Read',
  script: ({ cwd }) => ({
    model: [
      {
        content: [
          { type: 'thinking', thinking: 'Run the command and read the notes.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_bash_1', name: 'Bash', input: { command: 'exit 3', description: 'Fail on purpose' } },
          { type: 'tool_use', id: 'toolu_read_1', name: 'Read', input: { file_path: join(cwd, 'notes.txt') } },
        ],
        stop_reason: 'tool_use',
      },
      text('The command failed; the notes say hello.'),
    ],
  }),
  async run({ options, dirs }, seen) {
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'hello from the notes\n');
    await drain(
      query({
        prompt: 'Run the command and read notes.txt.',
        options: { ...options, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
      }),
      seen,
    );
  },
};
