import { describe, expect, it } from 'vitest';
import {
  buildCompactionPrompt,
  buildPostCompactMessages,
  extractCompactSummary,
  selectKeptMessages,
} from '../../../src/context/autocompact.ts';
import type { Message } from '../../../src/messages/types.ts';
import { estimateTokens } from '../../../src/rules/tokens.ts';
import { assistant, ids, isPaired, text, thinking, toolRound, toolUse, toolResult, user } from './build.ts';

function history(rounds: number): Message[] {
  const messages: Message[] = [user('first', 'task')];
  for (let n = 1; n <= rounds; n++) messages.push(...toolRound(n, 4_000));
  return messages;
}

describe('autocompact, pure part (layer 4)', () => {
  it('asks for a summary in tags and extracts it', () => {
    expect(buildCompactionPrompt()).toContain('<summary>');
    expect(extractCompactSummary('thinking aloud <summary>\n goal: X \n</summary> bye')).toBe('goal: X');
    expect(extractCompactSummary('  plain  ')).toBe('plain');
  });

  it('keeps the longest suffix within the budget that starts at a safe cut', () => {
    const messages = history(10);
    const kept = selectKeptMessages(messages, 3_100);
    expect(estimateTokens(kept)).toBeLessThanOrEqual(3_100);
    expect(kept[0].type).toBe('assistant');
    expect(isPaired(kept)).toBe(true);
    expect(kept).toEqual(messages.slice(messages.length - kept.length));
  });

  it('never splits parallel results from their tool_use blocks', () => {
    const messages: Message[] = [
      user('first', 'task'),
      assistant('a1', 'r1', toolUse('p'), toolUse('q')),
      toolResult('rp', 'p', 'x'.repeat(4_000)),
      toolResult('rq', 'q', 'x'.repeat(100)),
    ];
    for (const budget of [10, 40, 500, 1_100, 5_000]) expect(isPaired(selectKeptMessages(messages, budget))).toBe(true);
  });

  it('keeps a thinking-bearing last response whole and unchanged, even over the budget', () => {
    const last: Message[] = [
      assistant('a9', 'r9', thinking('t'.repeat(8_000))),
      assistant('a10', 'r9', text('now'), toolUse('z', 'Bash')),
      toolResult('rz', 'z', 'done'),
    ];
    const messages = [...history(3), ...last];
    const kept = selectKeptMessages(messages, 100);
    expect(kept).toEqual(last);
  });

  it('builds boundary, meta summary, kept messages and re-attached context, in that order', () => {
    const kept = history(2).slice(-2);
    const out = buildPostCompactMessages({
      summary: 'we fixed the lexer',
      keptMessages: kept,
      newId: ids('c'),
      preCompactTokens: 170_000,
      trigger: 'auto',
      attachments: [{ type: 'context', name: 'CLAUDE.md', content: 'rules' }],
    });
    expect(out[0]).toMatchObject({ type: 'system', subtype: 'compact_boundary', uuid: 'c-1', data: { preCompactTokens: 170_000, trigger: 'auto' } });
    expect(out[1]).toMatchObject({ type: 'user', uuid: 'c-2', isMeta: true });
    expect(JSON.stringify(out[1])).toContain('we fixed the lexer');
    expect(out.slice(2, 4)).toEqual(kept);
    expect(out[4]).toMatchObject({ type: 'attachment', uuid: 'c-3', attachment: { name: 'CLAUDE.md' } });
  });

  it('leaves system messages out of the kept messages', () => {
    const messages: Message[] = [user('u', 'x'), { type: 'system', uuid: 's', subtype: 'snip_boundary', content: 'gap' }, user('v', 'y')];
    expect(selectKeptMessages(messages, 1_000).map((m) => m.uuid)).toEqual(['u', 'v']);
  });
});
