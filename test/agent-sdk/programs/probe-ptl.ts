import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
const e = { status: 400, error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
export const ptl: SdkProgram = {
  name: 'ptl',
  script: () => ({ model: [e, e, e, e] }),
  async run({ options }, seen) { await drain(query({ prompt: 'Hello?', options }), seen); },
};
