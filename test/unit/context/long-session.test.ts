/**
 * A long session through the whole stack: query() → real Anthropic adapter and SDK → loopback fake API, with the
 * default context pipeline and the forked autocompact. The context must stay under the blocking limit in every
 * request while the tool results alone add up to several context windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { fakeReadTool } from '../../helpers/read-tool.ts';
import { startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';
import type { QueryItem, SystemMessage } from '../../../src/messages/types.ts';
import { contextThresholds } from '../../../src/rules/thresholds.ts';

const TURNS = 300;
const RESULT_CHARS = 24_000; // about 6,000 tokens per tool result: 300 turns ≈ 9 context windows

type ApiTurn = { role: string; content: Array<{ type: string; id?: string; tool_use_id?: string }> };
type ApiBody = { model: string; messages: ApiTurn[] };

/** Every tool_use of an assistant turn is answered once in the next user turn (docs/loop.md §9.9). */
function unpairedToolUses(messages: ApiTurn[]): string[] {
  const problems: string[] = [];
  messages.forEach((turn, i) => {
    if (turn.role !== 'assistant') return;
    const uses = turn.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (uses.length === 0) return;
    const next = messages[i + 1];
    const results = (next?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    for (const id of uses) if (results.filter((r) => r === id).length !== 1) problems.push(`turn ${i}: ${id}`);
  });
  return problems;
}

describe('a 300-turn session with large tool results', () => {
  const config = resolveConfig({ sessionId: 'long', features: { toolResultBudget: false } });
  const thresholds = contextThresholds(config.model, config);
  let api: FakeApi;
  let items: QueryItem[];
  let terminal: { reason: string };

  beforeAll(async () => {
    const model = Array.from({ length: TURNS }, (_, i) => ({
      content: [{ type: 'tool_use' as const, id: `toolu_${i}`, name: 'Read', input: { path: `file-${i}.txt` } }],
      stop_reason: 'tool_use',
    }));
    model.push({ content: [{ type: 'text', text: 'All files read.' }] as never, stop_reason: 'end_turn' });
    const compactionModel = Array.from({ length: 40 }, (_, i) => ({
      content: [{ type: 'text' as const, text: `<summary>Read files 0 to ${i}; keep reading.</summary>` }],
    }));
    api = await startFakeAnthropicApi({ model, compactionModel });
    const read = fakeReadTool((path) => `${path}\n${'x'.repeat(RESULT_CHARS)}`);
    const result = await runLoopToEnd({
      prompt: 'Read every file.',
      tools: [read],
      config,
      deps: {
        callModel: createAnthropicModelCaller({ apiKey: 'test-key', baseURL: api.baseURL }),
        clock: virtualClock(),
        newId: counterIds('long'),
      },
    });
    items = result.items;
    terminal = result.terminal;
  }, 120_000);

  afterAll(async () => {
    await api?.close();
  });

  const mainRequests = () => (api.log as Array<{ queue: string; body: ApiBody }>).filter((r) => r.queue === 'model');
  const compactionRequests = () => (api.log as Array<{ queue: string }>).filter((r) => r.queue === 'compactionModel');

  it('finishes normally after every scripted turn', () => {
    expect(terminal.reason).toBe('completed');
    expect(mainRequests()).toHaveLength(TURNS + 1);
  });

  it('keeps every request under the blocking limit', () => {
    const sizes = mainRequests().map((r) => Math.ceil(JSON.stringify(r.body.messages).length / 4));
    expect(Math.max(...sizes)).toBeLessThan(thresholds.blocking);
  });

  it('compacts automatically, once per context fill, each after crossing the autocompact threshold', () => {
    const boundaries = items.filter((i): i is SystemMessage => i.type === 'system' && i.subtype === 'compact_boundary');
    const totalChars = TURNS * RESULT_CHARS;
    const expectedAtLeast = Math.floor(totalChars / 4 / thresholds.autocompact);
    expect(boundaries.length).toBeGreaterThanOrEqual(expectedAtLeast);
    expect(boundaries.length).toBe(compactionRequests().length);
    for (const boundary of boundaries) {
      expect(boundary.data?.trigger).toBe('auto');
      expect(boundary.data?.preCompactTokens as number).toBeGreaterThanOrEqual(thresholds.autocompact);
    }
  });

  it('sends a history with every tool_use paired in every request', () => {
    for (const request of mainRequests()) expect(unpairedToolUses(request.body.messages)).toEqual([]);
    expect(api.rejections()).toEqual([]);
  });
});
