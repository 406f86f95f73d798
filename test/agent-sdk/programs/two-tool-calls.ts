/**
 * One reply with two tool calls, then an answer: each tool_result is its own user message (num_turns 3). Two Writes
 * (not concurrency-safe) run one after the other on both engines, so the order of the results is fixed.
 */
import { readFileSync } from 'node:fs';
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
          { type: 'thinking', thinking: 'Writing both.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_write_a', name: 'Write', input: { file_path: join(cwd, 'a.txt'), content: 'a\n' } },
          { type: 'tool_use', id: 'toolu_write_b', name: 'Write', input: { file_path: join(cwd, 'b.txt'), content: 'b\n' } },
        ],
        stop_reason: 'tool_use',
      },
      text('Both files written.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    await drain(query({ prompt: 'Write a.txt and b.txt.', options: { ...options, allowedTools: ['Write'] } }), seen);
    observed.written = ['a.txt', 'b.txt'].map((name) => readFileSync(join(dirs.cwd, name), 'utf8'));
  },
};
