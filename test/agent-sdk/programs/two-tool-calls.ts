/** One reply with two tool calls, then an answer: each tool_result is its own user message (num_turns 3). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const twoToolCallsInOneReply: SdkProgram = {
  name: 'two tool calls in one reply',
  script: ({ cwd }) => ({
    model: [
      {
        content: [
          { type: 'thinking', thinking: 'Reading both.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_read_a', name: 'Read', input: { file_path: join(cwd, 'a.txt') } },
          { type: 'tool_use', id: 'toolu_read_b', name: 'Read', input: { file_path: join(cwd, 'b.txt') } },
        ],
        stop_reason: 'tool_use',
      },
      text('Both files read.'),
    ],
  }),
  async run({ options, dirs }, seen) {
    writeFileSync(join(dirs.cwd, 'a.txt'), 'a\n');
    writeFileSync(join(dirs.cwd, 'b.txt'), 'b\n');
    await drain(query({ prompt: 'Read a.txt and b.txt.', options: { ...options, allowedTools: ['Read'] } }), seen);
  },
};
