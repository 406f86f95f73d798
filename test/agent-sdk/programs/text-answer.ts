/** The plainest program: one prompt, one text answer, one `success` result. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const textAnswer: SdkProgram = {
  name: 'a text answer',
  script: () => ({ model: [text('The answer is 4.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'What is 2 + 2?', options }), seen);
  },
};
