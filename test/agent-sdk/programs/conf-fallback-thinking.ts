/**
 * `thinking` after a fallback to a model without adaptive thinking (docs/agent-sdk-conformance.md): the session on
 * claude-sonnet-4-6 asks for thinking, three overloads move the request to claude-haiku-4-5; what each request's
 * `thinking` and `max_tokens` are.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

function confFallbackThinkingProgram(name: string, thinking: { type: 'adaptive' } | { type: 'enabled'; budgetTokens: number }): SdkProgram {
  return {
    name,
    script: () => ({ model: [{ status: 529 }, { status: 529 }, { status: 529 }, text('Answered by the fallback model.')] }),
    async run({ options, api, observed }, seen) {
      await drain(query({ prompt: 'Hello?', options: { ...options, fallbackModel: 'claude-haiku-4-5', thinking } }), seen);
      observed.requests = api.log.map((entry) => {
        const body = entry.body as { model?: string; thinking?: unknown; max_tokens?: number };
        return { model: body.model, thinking: body.thinking, maxTokens: body.max_tokens };
      });
    },
  };
}

export const confFallbackAdaptive = confFallbackThinkingProgram('thinking adaptive, then a fallback to Haiku 4.5', { type: 'adaptive' });
export const confFallbackBudget = confFallbackThinkingProgram('thinking with a budget, then a fallback to Haiku 4.5', { type: 'enabled', budgetTokens: 5000 });

/** `thinking.display` (`--thinking-display`): what each request's `thinking` carries. */
function confThinkingDisplayProgram(name: string, display: 'summarized' | 'omitted'): SdkProgram {
  return {
    name,
    script: () => ({ model: [text('Hello.')] }),
    async run({ options, api, observed }, seen) {
      await drain(query({ prompt: 'Hi.', options: { ...options, thinking: { type: 'adaptive', display } } }), seen);
      observed.thinking = (api.log[0]?.body as { thinking?: unknown } | undefined)?.thinking ?? null;
    },
  };
}

export const confThinkingSummarized = confThinkingDisplayProgram('thinking display summarized', 'summarized');
export const confThinkingOmitted = confThinkingDisplayProgram('thinking display omitted', 'omitted');
