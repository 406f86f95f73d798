/**
 * The SDK options that change the request (issue 39 item 6): a fixed thinking budget, an effort level and a task
 * budget. Each shows in the request sequence: `thinking`, `output_config`.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const fidelitySdkRequestOptions: SdkProgram = {
  name: 'thinking, effort and task budget options',
  script: () => ({ model: [text('Thought it over.')] }),
  async run({ options }, seen) {
    await drain(
      query({
        prompt: 'Think, then answer.',
        options: { ...options, thinking: { type: 'enabled', budgetTokens: 4_000 }, effort: 'low', taskBudget: { total: 50_000 } },
      }),
      seen,
    );
  },
};

export const fidelityFallbackModel: SdkProgram = {
  name: 'a fallback model after overloads',
  // Overloaded until the executable switches to the fallback model; the answer comes from it.
  script: () => ({ model: [{ status: 529, repeat: 4 }, text('Answered by the fallback.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Say hello.', options: { ...options, fallbackModel: 'claude-haiku-4-5' } }), seen);
  },
};
