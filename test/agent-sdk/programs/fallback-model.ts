/** `fallbackModel`: three overloaded answers in a row, then the request is sent again on the fallback model. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const fallbackModel: SdkProgram = {
  name: 'fallbackModel after overloads',
  script: () => ({ model: [{ status: 529 }, { status: 529 }, { status: 529 }, text('Answered by the fallback model.')] }),
  async run({ options, api, observed }, seen) {
    await drain(query({ prompt: 'Hello?', options: { ...options, fallbackModel: 'claude-haiku-4-5' } }), seen);
    observed.requestedModels = api.log.map((entry) => (entry.body as { model?: string }).model);
  },
};
