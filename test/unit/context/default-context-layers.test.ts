import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../../src/config/config.ts';
import { CLEARED_TOOL_RESULT } from '../../../src/context/microcompact.ts';
import { createCollapseCell } from '../../../src/context/collapse-cell.ts';
import { createCollapseDrainer } from '../../../src/context/create-drainer.ts';
import { createContextLayerRunner } from '../../../src/context/default-context-layers.ts';
import { createFileToolResultStore, createMemoryToolResultStore } from '../../../src/context/result-store.ts';
import type { ContextLayer } from '../../../src/data/effects.ts';
import type { Message } from '../../../src/messages/types.ts';
import { apply, assistant, ids, isPaired, resultContent, toolRound, toolUse, toolResult, user } from './build.ts';

const HOUR = 3_600_000;

function input(layer: ContextLayer, messages: Message[], tokenCount = 0, now = 0) {
  return { layer, messages, tokenCount, now, newId: ids(layer) };
}

describe('default context-layer runner', () => {
  it('stores replaced tool results and freezes the decision across calls', async () => {
    const config = resolveConfig({ sessionId: 's1' });
    const store = createMemoryToolResultStore();
    const run = createContextLayerRunner({ config, store });
    const messages: Message[] = [user('u', 'go'), assistant('a', 'r', toolUse('big', 'Bash')), toolResult('t', 'big', 'z'.repeat(60_000))];
    const first = await run(input('tool_result_budget', messages));
    expect(store.entries.get('memory://s1/big')).toBe('z'.repeat(60_000));
    expect(String(resultContent(apply(messages, first.edits), 'big'))).toContain('memory://s1/big');
    const again = await run(input('tool_result_budget', messages));
    expect(again.edits).toEqual(first.edits);
    expect(store.entries.size).toBe(1);
  });

  it('keeps a result whole when it could not be stored', async () => {
    const config = resolveConfig({});
    const failing = { pointerFor: () => 'p', put: () => Promise.reject(new Error('disk full')) };
    const run = createContextLayerRunner({ config, store: failing });
    const messages: Message[] = [user('u', 'go'), assistant('a', 'r', toolUse('big', 'Bash')), toolResult('t', 'big', 'z'.repeat(60_000))];
    expect(await run(input('tool_result_budget', messages))).toEqual({ edits: [], tokensFreed: 0 });
  });

  it('turns layers off with their feature switch', async () => {
    const config = resolveConfig({ features: { ...DEFAULT_CONFIG.features, toolResultBudget: false, historySnip: false, microcompact: false, contextCollapse: false } });
    const run = createContextLayerRunner({ config, store: createMemoryToolResultStore(), lastAssistantAt: () => 0 });
    const messages: Message[] = [user('u', 'go'), assistant('a', 'r', toolUse('big', 'Bash')), toolResult('t', 'big', 'z'.repeat(60_000))];
    for (const layer of ['tool_result_budget', 'snip', 'microcompact', 'context_collapse'] as const) {
      expect(await run(input(layer, messages, 10_000_000, 10 * HOUR))).toEqual({ edits: [], tokensFreed: 0 });
    }
  });

  it('snips against the autocompact threshold of the configured model', async () => {
    const config = resolveConfig({ features: { ...DEFAULT_CONFIG.features, historySnip: true }, snip: { triggerRatio: 0.9, keepRecentMessages: 2 } });
    const run = createContextLayerRunner({ config, store: createMemoryToolResultStore() });
    const messages: Message[] = [user('first', 'task'), ...toolRound(1, 4_000), ...toolRound(2, 4_000), ...toolRound(3, 10)];
    expect((await run(input('snip', messages, 150_300))).edits).toEqual([]);
    const out = await run(input('snip', messages, 150_301));
    expect(out.emitted?.[0]).toMatchObject({ subtype: 'snip_boundary' });
    expect(isPaired(apply(messages, out.edits))).toBe(true);
  });

  it('microcompacts after the idle gap using the injected last-reply time', async () => {
    const config = resolveConfig({});
    const run = createContextLayerRunner({ config, store: createMemoryToolResultStore(), lastAssistantAt: () => 0 });
    const messages: Message[] = [user('first', 'task')];
    for (let n = 1; n <= 7; n++) messages.push(...toolRound(n, 500));
    const out = await run(input('microcompact', messages, 0, 2 * HOUR));
    expect(resultContent(apply(messages, out.edits), 't1')).toBe(CLEARED_TOOL_RESULT);
    expect(out.edits).toHaveLength(2);
  });

  it('shares the collapse store with the drainer', async () => {
    const config = resolveConfig({ features: { ...DEFAULT_CONFIG.features, contextCollapse: true }, snip: { triggerRatio: 0.9, keepRecentMessages: 4 } });
    const cell = createCollapseCell();
    const run = createContextLayerRunner({ config, store: createMemoryToolResultStore(), collapse: cell });
    const drain = createCollapseDrainer(cell);
    const messages: Message[] = [user('first', 'task')];
    for (let n = 1; n <= 12; n++) messages.push(...toolRound(n, 4_000));
    const staged = await run(input('context_collapse', messages, 160_000)); // 0.9 × 167,000 = 150,300 ≤ 160,000 < 167,000
    expect(staged.edits).toEqual([]);
    expect(cell.store.pending).toHaveLength(1);
    const drained = await drain({ messages });
    expect(drained.committed).toBe(1);
    expect(cell.store.pending).toEqual([]);
    expect(isPaired(apply(messages, drained.edits))).toBe(true);
    expect(await drain({ messages })).toEqual({ committed: 0, edits: [] });
  });
});

describe('tool result stores', () => {
  it('writes files under <root>/<sessionId>/tool-results/<toolUseId>.txt', async () => {
    const root = await mkdtemp(join(tmpdir(), 'turnloop-store-'));
    try {
      const store = createFileToolResultStore({ root });
      const pointer = await store.put('sess', 'toolu_1', 'full text');
      expect(pointer).toBe(join(root, 'sess', 'tool-results', 'toolu_1.txt'));
      expect(pointer).toBe(store.pointerFor('sess', 'toolu_1'));
      expect(await readFile(pointer, 'utf8')).toBe('full text');
      expect(store.pointerFor('../x', 'a/b')).toBe(join(root, '_.._x', 'tool-results', 'a_b.txt'));
      expect(store.pointerFor('..', '.')).toBe(join(root, '_..', 'tool-results', '_..txt'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('defaults to .turnloop/sessions', () => {
    expect(createFileToolResultStore().pointerFor('s', 't')).toBe(join('.turnloop', 'sessions', 's', 'tool-results', 't.txt'));
  });
});
