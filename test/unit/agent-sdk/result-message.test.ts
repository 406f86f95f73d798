/** Every one of our terminals maps onto an SDK result the SDK can read: error results always carry `errors`. */
import { describe, expect, it } from 'vitest';
import { costOfUsage, priceOf } from '../../../src/config/prices.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import { TERMINAL_REASONS, type Terminal } from '../../../src/data/outcomes.ts';
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

/** As claude 2.1.334 reports each ending (probed offline; docs/agent-sdk.md). */
const EXPECTED: Record<(typeof TERMINAL_REASONS)[number], { subtype: string; is_error: boolean; terminal_reason: string }> = {
  completed: { subtype: 'success', is_error: false, terminal_reason: 'completed' },
  stop_hook_prevented: { subtype: 'success', is_error: false, terminal_reason: 'stop_hook_prevented' },
  hook_stopped: { subtype: 'success', is_error: false, terminal_reason: 'hook_stopped' },
  max_turns: { subtype: 'error_max_turns', is_error: true, terminal_reason: 'max_turns' },
  max_budget_usd: { subtype: 'error_max_budget_usd', is_error: true, terminal_reason: 'budget_exhausted' },
  aborted_streaming: { subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming' },
  aborted_tools: { subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools' },
  prompt_too_long: { subtype: 'success', is_error: true, terminal_reason: 'prompt_too_long' },
  image_error: { subtype: 'success', is_error: true, terminal_reason: 'image_error' },
  blocking_limit: { subtype: 'success', is_error: true, terminal_reason: 'blocking_limit' },
  model_error: { subtype: 'success', is_error: true, terminal_reason: 'model_error' },
};

describe('result message', () => {
  for (const reason of TERMINAL_REASONS) {
    const expected = EXPECTED[reason];
    it(`${reason} → ${expected.subtype} / is_error ${expected.is_error} / ${expected.terminal_reason}; an error subtype carries errors, a success its result`, () => {
      const result = resultMessage(summary(terminalOf(reason), { maxTurns: 1 }));
      expect(result).toMatchObject({ type: 'result', ...expected, num_turns: 1, session_id: 's', uuid: 'u' });
      for (const key of ['duration_ms', 'duration_api_ms', 'total_cost_usd', 'usage', 'modelUsage', 'permission_denials', 'stop_reason']) expect(result).toHaveProperty(key);
      if (result.subtype === 'success') {
        expect(typeof result.result).toBe('string');
        expect(result).not.toHaveProperty('errors');
      } else {
        expect(Array.isArray(result.errors) && (result.errors as string[]).length > 0 && (result.errors as string[]).every((e) => e.trim() !== '')).toBe(true);
      }
    });
  }

  it('a PreToolUse hook stop (hook_stopped) is a success with an empty result, even after a text block', () => {
    const lastAssistant: AssistantMessage = { type: 'assistant', uuid: 'a', message: { id: 'm', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'running it' }], stop_reason: 'tool_use' } };
    expect(resultMessage(summary({ reason: 'hook_stopped' }, { lastAssistant }))).toMatchObject({ subtype: 'success', is_error: false, result: '', terminal_reason: 'hook_stopped' });
  });

  it('a model error carries its text as the result', () => {
    expect(resultMessage(summary({ reason: 'model_error', error: { message: 'the API failed', status: 500 } }))).toMatchObject({ result: 'the API failed', api_error_status: 500 });
  });

  it('a crash of the run is error_during_execution with the error, and no terminal_reason: the loop reached none', () => {
    // The session stands a model_error in for the terminal it never got; the result does not pass it on. claude's own
    // crash result (probed: a corrupt .claude.json) is error_during_execution with errors and no terminal_reason.
    const crashed = resultMessage(summary({ reason: 'model_error', error: { message: 'boom' } }, { crashed: 'boom' }));
    expect(crashed).toMatchObject({ subtype: 'error_during_execution', is_error: true, errors: ['boom'] });
    expect(crashed).not.toHaveProperty('terminal_reason');
    expect(crashed).not.toHaveProperty('result');
  });

  it('structured output: the accepted input is structured_output and its JSON text the result; tries run out → its own subtype', () => {
    expect(resultMessage(summary({ reason: 'completed' }, { structuredOutput: { value: { a: 1 } } }))).toMatchObject({ subtype: 'success', result: '{"a":1}', structured_output: { a: 1 } });
    expect(resultMessage(summary({ reason: 'completed' }, { structuredOutput: { failedAttempts: 5, lastError: 'root: must have required property \'a\'' } }))).toMatchObject({
      subtype: 'error_max_structured_output_retries', is_error: true,
      errors: ["Failed to provide valid structured output after 5 attempts \u2014 last StructuredOutput error: root: must have required property 'a'"],
    });
  });

  it('a completed run that ended on an API error is a success subtype with is_error, the text as result, reason api_error', () => {
    const apiError = { kind: 'other' as const, text: 'API error 529 overloaded_error: Overloaded', status: 529 };
    const result = resultMessage(summary({ reason: 'completed', apiError }));
    expect(result).toMatchObject({ subtype: 'success', is_error: true, result: apiError.text, api_error_status: 529, terminal_reason: 'api_error' });
    expect(result).not.toHaveProperty('errors');
  });

  it('a budget stop is error_max_budget_usd whatever the terminal', () => {
    expect(resultMessage(summary({ reason: 'aborted_tools' }, { budgetExceeded: { maxBudgetUsd: 0.5 } }))).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true, terminal_reason: 'budget_exhausted', errors: ['Reached maximum budget ($0.5)'] });
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
      type: 'assistant', uuid: model + input, message: { id: `msg_${model}_${input}`, role: 'assistant', model, content: [], stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 100 } },
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

  it('counts a reply streamed as one message per block once, with the usage of its latest block', () => {
    const usage = new TurnUsage(() => ({ contextWindow: 200_000, maxOutputTokens: 32_000 }));
    const block = (id: string, output: number): AssistantMessage => ({
      type: 'assistant', uuid: `${id}-${output}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: output, cache_creation_input_tokens: 1_000 } },
    });
    // Reply 1: a thinking block (message_start's usage), then its tool_use (the final usage); reply 2: one block.
    usage.add(block('msg_1', 1));
    usage.add(block('msg_1', 20));
    usage.add(block('msg_2', 5));
    expect(usage.usage).toEqual({ input_tokens: 20, output_tokens: 25, cache_creation_input_tokens: 2_000, cache_read_input_tokens: 0 });
    expect(usage.modelUsage['claude-sonnet-4-6']).toMatchObject({ inputTokens: 20, outputTokens: 25, cacheCreationInputTokens: 2_000 });
    expect(usage.costUsd).toBeCloseTo((20 * 3 + 25 * 15 + 2_000 * 3.75) / 1e6, 12);
  });
});
