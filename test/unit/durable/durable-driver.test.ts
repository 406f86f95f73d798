/**
 * The durable driver's own scheduling: what it does differently from `query()` (Extension `durableToolsInCallOrder`),
 * and how an abort reaches a durable run.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { MemoryJournal, runDurableQuery, type EffectEntry } from '../../../src/durable/index.ts';

function twoToolModel(): ModelCaller {
  return async function* (request) {
    const answered = request.messages.some((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result'));
    const content = answered
      ? [{ type: 'text' as const, text: 'both read' }]
      : [
          { type: 'tool_use' as const, id: 'toolu_a', name: 'Slow', input: { ms: 30 } },
          { type: 'tool_use' as const, id: 'toolu_b', name: 'Slow', input: { ms: 1 } },
        ];
    const message = { type: 'assistant' as const, uuid: 'm', message: { id: 'm', role: 'assistant' as const, model: request.model, content, stop_reason: answered ? 'end_turn' : 'tool_use' } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', stopReason: message.message.stop_reason } };
  } as ModelCaller;
}

describe('durable driver', () => {
  it('runs concurrency-safe tool calls one at a time, in call order, after the reply', async () => {
    const log: string[] = [];
    const slow = defineTool({
      name: 'Slow',
      description: 'Waits.',
      inputSchema: z.object({ ms: z.number() }),
      isConcurrencySafe: () => true,
      idempotent: true,
      call: async ({ ms }, ctx) => {
        log.push(`start ${ctx.toolUseId}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${ctx.toolUseId}`);
        return { content: `waited ${ms}` };
      },
    });
    const journal = new MemoryJournal();
    const { terminal } = await runDurableQuery({ prompt: 'read both', tools: [slow], deps: { callModel: twoToolModel() }, journal });
    expect(terminal.reason).toBe('completed');
    expect(log).toEqual(['start toolu_a', 'end toolu_a', 'start toolu_b', 'end toolu_b']);
    const names = journal.entries.map((entry) => entry.name.split(':')[0]);
    expect(names.indexOf('tool')).toBeGreaterThan(names.indexOf('call_model'));
    expect(journal.entries.filter((entry) => entry.name.startsWith('tool:')).map((entry) => entry.name)).toEqual(['tool:toolu_a', 'tool:toolu_b']);
  });

  it('journals an abort with the entry it was seen in; every tool_use still gets its result', async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: 'Slow',
      description: 'Waits.',
      inputSchema: z.object({ ms: z.number() }),
      interruptBehavior: 'cancel',
      idempotent: true,
      call: async () => {
        controller.abort('user_cancel');
        return { content: 'done anyway' };
      },
    });
    const journal = new MemoryJournal();
    const { items, terminal } = await runDurableQuery({ prompt: 'go', tools: [slow], deps: { callModel: twoToolModel() }, journal, signal: controller.signal });
    expect(terminal.reason).toBe('aborted_tools');
    const results = items.flatMap((item) => (item.type === 'user' && Array.isArray(item.message.content) ? item.message.content.filter((b) => b.type === 'tool_result') : []));
    expect(results.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(['toolu_a', 'toolu_b']);
    const aborted = journal.entries.filter((entry) => (entry.value as EffectEntry).abort !== undefined);
    expect(aborted.map((entry) => entry.name)).toEqual(['tool:toolu_a', 'tool:toolu_b']);

    // Recovered from its journal, the aborted run ends the same way without a signal.
    const recovered = await runDurableQuery({ prompt: 'go', tools: [slow], deps: { callModel: twoToolModel() }, journal: new MemoryJournal(journal.entries) });
    expect(recovered.items).toEqual(items);
    expect(recovered.terminal).toEqual(terminal);
  });
});
