/**
 * What a `canUseTool` question says besides the input (issue #38): a Bash call with a description and one without,
 * a Write and an Edit in the working directory. Observed: each question's `displayName`, `description` and whether
 * it named a `blockedPath`, with the run's directory written `<cwd>`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const confQuestions: SdkProgram = {
  name: 'conf: what a canUseTool question says of the call',
  script: (dirs) => ({
    model: [
      toolCall('toolu_bash', 'Bash', { command: 'touch a.txt', description: 'Make a file' }),
      toolCall('toolu_bash_bare', 'Bash', { command: 'touch b.txt' }),
      toolCall('toolu_write', 'Write', { file_path: join(dirs.cwd, 'w.txt'), content: 'w' }),
      toolCall('toolu_edit', 'Edit', { file_path: join(dirs.cwd, 'e.txt'), old_string: 'x', new_string: 'y' }),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'e.txt'), 'x\n');
    const asked: Record<string, unknown> = {};
    for await (const message of query({
      prompt: 'Make and change files.',
      options: {
        ...options,
        canUseTool: async (_tool, input, { toolUseID, displayName, description, blockedPath }) => {
          asked[toolUseID] = { displayName, description: description?.replaceAll(dirs.cwd, '<cwd>'), blockedPath: blockedPath?.replaceAll(dirs.cwd, '<cwd>') };
          return { behavior: 'allow', updatedInput: input };
        },
      },
    })) seen.push(message);
    observed.asked = asked;
  },
};
