/**
 * Two endings of a request (issue 39, item 5): a single 401 is retried with the normal backoff and the run goes
 * on; an empty reply (no content block) ends the turn with `stop_reason: 'end_turn'` in the result.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const fidelitySingle401: SdkProgram = {
  name: 'a single 401, then an answer',
  script: () => ({ model: [{ status: 401 }, text('Answered after the retry.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Say hello.', options }), seen);
  },
};

export const fidelityEmptyReply: SdkProgram = {
  name: 'an empty reply',
  // The second answer is for the real executable, which asks again after an empty reply (drift emptyReplyNudge).
  script: () => ({ model: [{ content: [], stop_reason: 'end_turn' }, text('Nothing to say.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Say nothing.', options }), seen);
  },
};

export const fidelityRefusal: SdkProgram = {
  name: 'a refusal',
  // The second answer is for the real executable, which may ask again after a refusal (drift refusalNudge).
  script: () => ({ model: [{ content: [{ type: 'text', text: 'I cannot help with that.' }], stop_reason: 'refusal' }, text('Answered after all.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Do the forbidden thing.', options }), seen);
  },
};
