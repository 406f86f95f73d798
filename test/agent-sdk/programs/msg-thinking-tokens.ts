/** A reply that thinks at length: claude reports a running estimate of the thinking streamed (`system/thinking_tokens`). */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';

/** 100 characters: the fake API streams them as seven pieces (six of 16, one of 4). */
export const LONG_THINKING = 'Weighing the question from several sides before answering it, one careful step after another step...';

export const thinkingTokens: SdkProgram = {
  name: 'a reply with long thinking',
  script: () => ({ model: [{ content: [{ type: 'thinking', thinking: LONG_THINKING, signature: 'sig-offline' }, { type: 'text', text: 'Thought it through.' }] }] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'Think it over.', options }), seen);
    observed.estimates = seen.flatMap((m) => (m.type === 'system' && m.subtype === 'thinking_tokens' ? [[m.estimated_tokens, m.estimated_tokens_delta]] : []));
  },
};

/** One visible character of thinking and a long signature (the thinking the API did not show): the estimate follows the signature. */
export const hiddenThinkingTokens: SdkProgram = {
  name: 'a reply whose thinking is mostly hidden',
  script: () => ({ model: [{ content: [{ type: 'thinking', thinking: 'x', signature: 's'.repeat(400) }, { type: 'text', text: 'Thought it through.' }] }] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'Think it over.', options }), seen);
    observed.estimates = seen.flatMap((m) => (m.type === 'system' && m.subtype === 'thinking_tokens' ? [[m.estimated_tokens, m.estimated_tokens_delta]] : []));
  },
};
