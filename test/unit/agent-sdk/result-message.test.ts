/** Every one of our terminals maps onto an SDK result the SDK can read: error results always carry `errors`. */
import { describe, expect, it } from 'vitest';
import { costOfUsage, priceOf } from '../../../src/config/prices.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import { TERMINAL_REASONS, type Terminal } from '../../../src/reducer/outcomes.ts';
import { resultMessage, type TurnSummary } from '../../../src/agent-sdk/result-message.ts';
import { TurnUsage } from '../../../src/agent-sdk/turn-usage.ts';

function summary(terminal: Terminal, extra: Partial<TurnSummary> = {}): TurnSummary {
  return {
    terminal, numTurns: 1, usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    modelUsage: {}, totalCostUsd: 0, durationMs: 5, durationApiMs: 3, permissionDenials: [], sessionId: 's', uuid: 'u', ...extra,
  };
}

function terminalOf(reason: (typeof TERMINAL_REASONS)[number]): Terminal {
  if (reason === 'model_error') return { reason, error: { message: 'the API failed' } };
  if (reason === 'max_turns') return { reason, turnCount: 2 };
  if (reason === 'max_budget_usd') return { reason, costUsd: 0.5, maxCostUsd: 0.4, message: 'Stopped: the next call could take the spend past the cap of $0.40.' };
  return { reason } as Terminal;
}

const SUBTYPES: Record<(typeof TERMINAL_REASONS)[number], string> = {
  completed: 'success',
  max_turns: 'error_max_turns',
  blocking_limit: 'error_during_execution',
  image_error: 'error_during_execution',
  model_error: 'error_during_execution',
  aborted_streaming: 'error_during_execution',
  prompt_too_long: 'error_during_execution',
  stop_hook_prevented: 'error_during_execution',
  aborted_tools: 'error_during_execution',
  hook_stopped: 'error_during_execution',
  max_budget_usd: 'error_max_budget_usd',
};

describe('result message', () => {
  for (const reason of TERMINAL_REASONS) {
    it(`${reason} → ${SUBTYPES[reason]} with terminal_reason and, when an error, a non-empty errors array`, () => {
      const result = resultMessage(summary(terminalOf(reason), { maxTurns: 1 }));
      expect(result).toMatchObject({ type: 'result', subtype: SUBTYPES[reason], terminal_reason: reason, num_turns: 1, session_id: 's', uuid: 'u' });
      for (const key of ['duration_ms', 'duration_api_ms', 'total_cost_usd', 'usage', 'modelUsage', 'permission_denials', 'stop_reason']) expect(result).toHaveProperty(key);
      if (result.subtype === 'success') expect(result.result).toBe('');
      else {
        expect(result.is_error).toBe(true);
        expect(Array.isArray(result.errors) && (result.errors as string[]).length > 0 && (result.errors as string[]).every((e) => e.trim() !== '')).toBe(true);
      }
    });
  }

  it('a completed run that ended on an API error is a success subtype with is_error, the text as result, reason api_error', () => {
    const apiError = { kind: 'other' as const, text: 'API error 529 overloaded_error: Overloaded', status: 529 };
    const result = resultMessage(summary({ reason: 'completed', apiError }));
    expect(result).toMatchObject({ subtype: 'success', is_error: true, result: apiError.text, api_error_status: 529, terminal_reason: 'api_error' });
    expect(result).not.toHaveProperty('errors');
  });

  it('a budget stop is error_max_budget_usd whatever the terminal', () => {
    expect(resultMessage(summary({ reason: 'aborted_tools' }, { budgetExceeded: { maxBudgetUsd: 0.5 } }))).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true, errors: ['Reached maximum budget ($0.5)'] });
  });

  it('the result text is the last assistant message text', () => {
    const lastAssistant: AssistantMessage = { type: 'assistant', uuid: 'a', message: { id: 'm', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'all ' }, { type: 'text', text: 'done' }], stop_reason: 'end_turn' } };
    expect(resultMessage(summary({ reason: 'completed' }, { lastAssistant }))).toMatchObject({ result: 'all done', stop_reason: 'end_turn', is_error: false });
  });
});

describe('turn usage', () => {
  it('sums usage per model and prices it with the published table', () => {
    const usage = new TurnUsage(() => ({ contextWindow: 200_000, maxOutputTokens: 32_000 }));
    const message = (model: string, input: number, output: number): AssistantMessage => ({
      type: 'assistant', uuid: model + input, message: { id: 'm', role: 'assistant', model, content: [], stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 100 } },
    });
    usage.add(message('claude-sonnet-4-6', 1_000, 100));
    usage.add(message('claude-sonnet-4-6', 2_000, 200));
    usage.add(message('claude-haiku-4-5', 500, 50));
    expect(usage.usage).toEqual({ input_tokens: 3_500, output_tokens: 350, cache_creation_input_tokens: 0, cache_read_input_tokens: 300 });
    // Sonnet 4.6 at $3 / $15 per million, cache reads at 0.1x; Haiku 4.5 at $1 / $5.
    const sonnet = (3_000 * 3 + 300 * 15 + 200 * 0.3) / 1e6;
    const haiku = (500 * 1 + 50 * 5 + 100 * 0.1) / 1e6;
    expect(usage.modelUsage['claude-sonnet-4-6'].costUSD).toBeCloseTo(sonnet, 12);
    expect(usage.modelUsage['claude-haiku-4-5']).toMatchObject({ inputTokens: 500, outputTokens: 50, cacheReadInputTokens: 100, contextWindow: 200_000 });
    expect(usage.costUsd).toBeCloseTo(sonnet + haiku, 12);
    expect(costOfUsage({ input_tokens: 1e6, output_tokens: 0 }, priceOf('claude-sonnet-4-6')!)).toBe(3);
  });
});
