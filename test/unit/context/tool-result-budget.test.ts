import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/config.ts';
import { budgetToolResults, previewToolResult } from '../../../src/context/tool-result-budget.ts';
import type { Message } from '../../../src/messages/types.ts';
import { apply, assistant, resultContent, toolResult, toolUse, user } from './build.ts';

const config = DEFAULT_CONFIG.toolResultBudget; // 50,000 per result, 200,000 per message, 2,000 preview
const pointerFor = (id: string) => `store/${id}.txt`;

function freshBatch(sizes: Record<string, number>, name = 'Bash'): Message[] {
  const uses = Object.keys(sizes).map((id) => toolUse(id, name));
  return [
    user('u0', 'go'),
    assistant('a1', 'r1', ...uses),
    ...Object.entries(sizes).map(([id, n], i) => toolResult(`res${i}`, id, String(i).repeat(n))),
  ];
}

describe('tool-result budget (layer 0)', () => {
  it('replaces a result over the per-result cap by a preview with a pointer, and asks to store the full text', () => {
    const messages = freshBatch({ big: 60_000, small: 100 });
    const out = budgetToolResults({ messages, config, decisions: {}, pointerFor });
    expect(out.toStore).toEqual([{ toolUseId: 'big', content: '0'.repeat(60_000) }]);
    expect(out.edits).toHaveLength(1);
    const preview = out.newDecisions.big;
    expect(preview.startsWith('0'.repeat(2_000))).toBe(true);
    expect(preview).toContain('store/big.txt');
    expect(resultContent(apply(messages, out.edits), 'big')).toBe(preview);
    expect(resultContent(apply(messages, out.edits), 'small')).toBe('1'.repeat(100));
    expect(out.tokensFreed).toBe(Math.ceil(60_000 / 4) - Math.ceil(preview.length / 4));
  });

  it('replaces the largest fresh results until the message is under the per-message budget', () => {
    const messages = freshBatch({ a: 45_000, b: 49_000, c: 48_000, d: 47_000, e: 46_000 }); // 235,000 in total
    const out = budgetToolResults({ messages, config, decisions: {}, pointerFor });
    expect(out.toStore.map((r) => r.toolUseId)).toEqual(['b']);
    const after = apply(messages, out.edits);
    const total = ['a', 'b', 'c', 'd', 'e'].reduce((sum, id) => sum + String(resultContent(after, id)).length, 0);
    expect(total).toBeLessThanOrEqual(config.perMessageChars);
  });

  it('looks only at the fresh results after the last assistant message', () => {
    const old = freshBatch({ old: 80_000 });
    const messages = [...old, assistant('a2', 'r2', toolUse('new', 'Bash')), toolResult('res-new', 'new', 'ok')];
    const out = budgetToolResults({ messages, config, decisions: {}, pointerFor });
    expect(out.edits).toEqual([]);
  });

  it('counts results that arrived between blocks of the last response as fresh', () => {
    const messages: Message[] = [
      user('u0', 'go'),
      assistant('a1', 'r1', toolUse('early', 'Bash')),
      toolResult('res1', 'early', 'e'.repeat(70_000)),
      assistant('a2', 'r1', toolUse('late', 'Bash')),
      toolResult('res2', 'late', 'ok'),
    ];
    const out = budgetToolResults({ messages, config, decisions: {}, pointerFor });
    expect(out.toStore.map((r) => r.toolUseId)).toEqual(['early']);
  });

  it('re-applies a frozen decision byte for byte and never stores it again', () => {
    const messages = freshBatch({ big: 60_000 });
    const first = budgetToolResults({ messages, config, decisions: {}, pointerFor });
    const again = budgetToolResults({ messages, config, decisions: first.newDecisions, pointerFor });
    expect(again.toStore).toEqual([]);
    expect(again.edits).toEqual(first.edits);
    expect(JSON.stringify(apply(messages, again.edits))).toBe(JSON.stringify(apply(messages, first.edits)));
    // Once applied, re-running changes nothing.
    const settled = budgetToolResults({ messages: apply(messages, first.edits), config, decisions: first.newDecisions, pointerFor });
    expect(settled.edits).toEqual([]);
  });

  it('keeps a frozen decision even when the budget would now decide otherwise', () => {
    const messages = freshBatch({ small: 10 });
    const out = budgetToolResults({ messages, config, decisions: { small: 'frozen preview' }, pointerFor });
    expect(out.edits).toEqual([{ op: 'replace_tool_result', toolUseId: 'small', content: 'frozen preview' }]);
  });

  it('skips the results of exempt tools', () => {
    const messages = freshBatch({ big: 90_000 }, 'Unbounded');
    const out = budgetToolResults({ messages, config, decisions: {}, pointerFor, exemptTools: ['Unbounded'] });
    expect(out.edits).toEqual([]);
    expect(out.tokensFreed).toBe(0);
  });

  it('never replaces a result that carries an image', () => {
    const messages: Message[] = [
      user('u0', 'go'),
      assistant('a1', 'r1', toolUse('shot', 'Screenshot')),
      toolResult('res', 'shot', [
        { type: 'text', text: 'y'.repeat(70_000) },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      ]),
    ];
    expect(budgetToolResults({ messages, config, decisions: {}, pointerFor }).edits).toEqual([]);
  });

  it('does not cut a surrogate pair in the preview', () => {
    const preview = previewToolResult('a😀b', 'p', 2);
    expect(preview.startsWith('a\n')).toBe(true);
  });
});

describe('per-message selection as the original (Claude Code 2.1.88 utils/toolResultStorage.ts:670-692, 837-847)', () => {
  const small = { perResultChars: 10_000, perMessageChars: 1_000, previewChars: 200 };

  it('counts each replaced result at its full size, so it replaces no more than that count says', () => {
    // 1,280 characters over a 1,000 limit: replacing the 500 leaves 780 by the full-size count; done.
    const messages = freshBatch({ a: 500, b: 480, c: 300 });
    const out = budgetToolResults({ messages, config: small, decisions: {}, pointerFor });
    expect(out.toStore.map((r) => r.toolUseId)).toEqual(['a']);
  });

  it('leaves exempt tools out of the count (toolResultStorage.ts:837-847)', () => {
    const messages: Message[] = [
      user('u0', 'go'),
      assistant('a1', 'r1', toolUse('read', 'Read'), toolUse('bash', 'Bash')),
      toolResult('res0', 'read', 'r'.repeat(900)),
      toolResult('res1', 'bash', 'b'.repeat(600)),
    ];
    const out = budgetToolResults({ messages, config: small, decisions: {}, pointerFor, exemptTools: ['Read'] });
    expect(out.edits).toEqual([]);
  });

  it('leaves results already replaced out of the count, re-applying them byte for byte', () => {
    const messages = freshBatch({ a: 900, b: 600 });
    const kept = 'p'.repeat(500);
    const out = budgetToolResults({ messages, config: small, decisions: { a: kept }, pointerFor });
    expect(out.edits).toEqual([{ op: 'replace_tool_result', toolUseId: 'a', content: kept }]);
    expect(out.toStore).toEqual([]);
  });
});

describe('tool-result budget: the common turn (round 14)', () => {
  it('sorts nothing when every fresh result is within its limit and the message within its budget', () => {
    // This layer runs on every turn; ranking the results by size is only needed when one must be replaced.
    const messages = freshBatch({ a: 100, b: 200 });
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      const out = budgetToolResults({ messages, config, decisions: {}, pointerFor });
      expect(sort).not.toHaveBeenCalled();
      expect(out).toEqual({ edits: [], tokensFreed: 0, toStore: [], newDecisions: {} });
    } finally {
      sort.mockRestore();
    }
  });

  it('gives the same outcome on that path as the ranking does, frozen decisions included', () => {
    const messages = freshBatch({ a: 100, b: 200 });
    const out = budgetToolResults({ messages, config, decisions: { a: 'kept' }, pointerFor });
    expect(out.edits).toEqual([{ op: 'replace_tool_result', toolUseId: 'a', content: 'kept' }]);
    expect(out.tokensFreed).toBe(Math.ceil(100 / 4) - Math.ceil(4 / 4));
    expect(out.toStore).toEqual([]);
  });

  it('takes the ranking, as before the shortcut, when a limit is NaN or undefined', () => {
    // A config group is Partial in ConfigOverrides, so a limit can arrive undefined; the ranking's own `<=` tests
    // then replace the result, and the shortcut must not decide otherwise.
    const messages = freshBatch({ a: 5_000 });
    for (const broken of [{ ...config, perMessageChars: undefined as unknown as number }, { ...config, perResultChars: Number.NaN }]) {
      const out = budgetToolResults({ messages, config: broken, decisions: {}, pointerFor });
      expect(out.edits).toHaveLength(1);
      expect(out.toStore).toHaveLength(1);
    }
  });
});
