/**
 * `max_tokens` inside a tool_use block (issue 39, item 2): the reply is a thinking block and a tool_use cut short.
 * Once the incomplete tool_use is dropped the assistant turn is thinking alone, which the API refuses as a last
 * block; the original drops that turn and sends the prompt and the recovery message as one user turn.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const fidelityMaxTokensInToolUse: SdkProgram = {
  name: 'max_tokens inside a tool_use block',
  script: () => ({
    model: [
      {
        content: [
          { type: 'thinking', thinking: 'Write the whole file.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_write_1', name: 'Write', input: { file_path: '/tmp/never.txt', content: 'a very long file' } },
        ],
        truncate_last_block: true,
      },
      text('Here is a shorter answer.'),
    ],
  }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Write a very long file.', options }), seen);
  },
};
