import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/config.ts';
import { snipHistory, snipTrigger } from '../../../src/context/snip.ts';
import type { Message } from '../../../src/messages/types.ts';
import { estimateTokens } from '../../../src/rules/tokens.ts';
import { apply, assistant, ids, isPaired, text, toolRound, toolUse, toolResult, user } from './build.ts';

const config = { triggerRatio: 0.9, keepRecentMessages: 4 };
const threshold = 10_000; // trigger at 9,000 tokens

function longHistory(rounds: number): Message[] {
  const messages: Message[] = [user('first', 'the task')];
  for (let n = 1; n <= rounds; n++) messages.push(...toolRound(n, 4_000)); // ~1,000 tokens per round
  return messages;
}

describe('history snip (layer 1)', () => {
  it('does nothing at or below triggerRatio × the autocompact threshold', () => {
    const messages = longHistory(20);
    const out = snipHistory({ messages, tokenCount: snipTrigger(threshold, config), autocompactThreshold: threshold, config, newId: ids() });
    expect(out).toEqual({ edits: [], tokensFreed: 0 });
  });

  it('drops the oldest whole rounds, keeps the first user message, and replaces them by a boundary in place', () => {
    const messages = longHistory(20);
    const tokenCount = estimateTokens(messages);
    const out = snipHistory({ messages, tokenCount, autocompactThreshold: threshold, config, newId: ids('b') });
    const after = apply(messages, out.edits);
    expect(after[0].uuid).toBe('first');
    expect(after[1]).toMatchObject({ type: 'system', subtype: 'snip_boundary', uuid: 'b-1' });
    expect(out.emitted).toEqual([after[1]]);
    expect(isPaired(after)).toBe(true);
    expect(out.tokensFreed).toBe(estimateTokens(messages) - estimateTokens(after));
    expect(tokenCount - out.tokensFreed).toBeLessThanOrEqual(snipTrigger(threshold, config));
  });

  it('never separates a tool_use from its tool_result, even for parallel results', () => {
    const messages: Message[] = [
      user('first', 'task'),
      assistant('a1', 'r1', text('reading')),
      assistant('a2', 'r1', toolUse('p'), toolUse('q')),
      toolResult('rp', 'p', 'x'.repeat(20_000)),
      toolResult('rq', 'q', 'x'.repeat(20_000)),
      ...toolRound(2, 100),
      ...toolRound(3, 100),
    ];
    const out = snipHistory({ messages, tokenCount: 20_000, autocompactThreshold: threshold, config, newId: ids() });
    const after = apply(messages, out.edits);
    expect(isPaired(after)).toBe(true);
    expect(after.map((m) => m.uuid)).not.toContain('rp');
    expect(after.map((m) => m.uuid)).not.toContain('a1');
  });

  it('keeps at least keepRecentMessages messages', () => {
    const messages = longHistory(3);
    const out = snipHistory({ messages, tokenCount: 1_000_000, autocompactThreshold: threshold, config, newId: ids() });
    const after = apply(messages, out.edits);
    expect(after.slice(-4)).toEqual(messages.slice(-4));
    expect(after).toHaveLength(1 + 1 + 4);
  });

  it('does nothing when only the first message and the protected tail exist', () => {
    const messages = longHistory(2);
    const out = snipHistory({ messages, tokenCount: 1_000_000, autocompactThreshold: threshold, config, newId: ids() });
    expect(out.edits).toEqual([]);
  });

  it('uses the defaults of docs/loop.md §6 through config', () => {
    expect(snipTrigger(167_000, DEFAULT_CONFIG.snip)).toBe(150_300);
  });
});
