/**
 * The worked example as a full loop: "fix the null pointer bug" → Read, Edit, final answer. Three model
 * calls through the real SDK and the fake API, two tool runs, two next_turn transitions, completed; every
 * request the API saw pairs each tool_use with exactly one tool_result (docs/loop.md §9.9).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { REPO_ROOT } from './capture-io.ts';

type ApiBlock = { type: string; id?: string; tool_use_id?: string; name?: string; content?: unknown };
type ApiRequest = { messages: Array<{ role: string; content: string | ApiBlock[] }> };

const blocks = (request: ApiRequest) => request.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));

describe('the worked example (read, edit, finish)', async () => {
  const scenario = loadScenario(join(REPO_ROOT, 'examples/scenarios/completed.json'), REPO_ROOT);
  const result = await simulateScenario(scenario);
  const requests = result.requests as ApiRequest[];

  it('takes three model calls and two tool runs, then completes', () => {
    expect(result.terminal).toEqual({ reason: 'completed' });
    expect(result.modelCalls).toBe(3);
    expect(result.transitions).toEqual(['next_turn', 'next_turn']);
    expect(result.toolCalls.map((call) => call.name)).toEqual(['Read', 'Edit']);
    expect(result.toolCalls[0].input).toEqual({ file_path: 'src/auth/validate.ts' });
    expect(result.scriptExhausted).toBe(false);
  });

  it('emits each block as its own assistant message, each followed in time by its tool result', () => {
    const kinds = result.emitted.map((m) =>
      m.type === 'assistant' ? `assistant:${m.message.content[0].type}` : m.type === 'user' && typeof m.message.content !== 'string' ? `user:${m.message.content[0].type}` : m.type,
    );
    expect(kinds).toEqual([
      'assistant:text',
      'assistant:tool_use',
      'user:tool_result',
      'assistant:text',
      'assistant:tool_use',
      'user:tool_result',
      'assistant:text',
    ]);
  });

  it('sends the read file to the model in the second request and the edit result in the third', () => {
    expect(requests).toHaveLength(3);
    const second = blocks(requests[1]).filter((b) => b.type === 'tool_result');
    expect(second).toHaveLength(1);
    expect(JSON.stringify(second[0].content)).toContain('user.token.length');
    const third = blocks(requests[2]).filter((b) => b.type === 'tool_result');
    expect(JSON.stringify(third[1].content)).toContain('Edited src/auth/validate.ts');
  });

  it('pairs every tool_use with exactly one tool_result in every request (docs/loop.md §9.9)', () => {
    for (const request of requests) {
      const all = blocks(request);
      const uses = all.filter((b) => b.type === 'tool_use').map((b) => b.id);
      const results = all.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
      expect([...results].sort()).toEqual([...uses].sort());
    }
  });
});
