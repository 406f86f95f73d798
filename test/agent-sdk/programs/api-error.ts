/** The API refuses the request (a 400, which no executable retries): the run ends with an error result. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';

export const apiErrorEnding: SdkProgram = {
  name: 'an API error ending',
  script: () => ({ model: [{ status: 403 }] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Hello?', options }), seen);
  },
};
