import { describe, expect, it } from 'vitest';
import { QUERY_SOURCE_HEADER, TASK_BUDGET_BETA } from '../../../src/model/build-request.ts';
import { modelRequest, runCall } from './helpers.ts';

const reply = { content: [{ type: 'text' as const, text: 'ok' }] };

describe('the request sent to the API', () => {
  it('carries model, max_tokens, system as text blocks, the tools, stream: true and the querySource header', async () => {
    const tools = [{ name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const { api } = await runCall({ model: [reply] }, modelRequest({ model: 'claude-x', max_tokens: 777, system: ['one', 'two'] }), {
      tools,
      querySource: 'sdk',
    });
    expect(api.requests[0]).toEqual({
      model: 'claude-x',
      max_tokens: 777,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
      system: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
      tools,
      stream: true,
    });
    expect(api.log[0].headers[QUERY_SOURCE_HEADER]).toBe('sdk');
    expect(api.log[0].headers['anthropic-beta']).toBeUndefined();
  });

  it('sends a task budget as output_config.task_budget with its beta header', async () => {
    const { api } = await runCall({ model: [reply] }, modelRequest({ task_budget: { total: 500_000, remaining: 120_000 } }));
    expect((api.requests[0] as { output_config?: unknown }).output_config).toEqual({
      task_budget: { type: 'tokens', total: 500_000, remaining: 120_000 },
    });
    expect(api.log[0].headers['anthropic-beta']).toContain(TASK_BUDGET_BETA);
  });

  it('routes compact requests to the compaction list of the fake API', async () => {
    const { api, events } = await runCall(
      { model: [reply], compactionModel: [{ content: [{ type: 'text', text: 'summary' }] }] },
      undefined,
      { querySource: 'compact' },
    );
    expect(api.log[0].queue).toBe('compactionModel');
    expect(events[0]).toMatchObject({ type: 'model_message', message: { message: { content: [{ type: 'text', text: 'summary' }] } } });
    expect(api.remaining()).toBe(1);
  });
});
