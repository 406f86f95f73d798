/** `interrupt()` while the model is still answering: the turn ends aborted and the SDK reports it. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';

export const interruptMidAnswer: SdkProgram = {
  name: 'an interrupt',
  // A slow answer: the interrupt lands while the request is open.
  script: () => ({ model: [{ content: [{ type: 'text', text: 'A long answer...' }], delayMs: 30_000 }] }),
  async run({ options, api, observed }, seen) {
    const run = query({ prompt: 'Tell me a long story.', options });
    const interrupted = (async () => {
      while (api.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await run.interrupt();
      observed.interruptAnswered = true;
    })();
    await drain(run, seen);
    await interrupted;
  },
};
