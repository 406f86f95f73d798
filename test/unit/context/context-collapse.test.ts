import { describe, expect, it } from 'vitest';
import {
  EMPTY_COLLAPSE_STORE,
  drainCollapses,
  projectCollapses,
  runContextCollapse,
  stageCollapse,
  summarizeSpan,
} from '../../../src/context/context-collapse.ts';
import type { Message } from '../../../src/messages/types.ts';
import { estimateTokens } from '../../../src/rules/tokens.ts';
import { apply, assistant, ids, isPaired, text, toolRound, toolUse, toolResult, user } from './build.ts';

function history(rounds: number): Message[] {
  const messages: Message[] = [user('first', 'fix the parser')];
  for (let n = 1; n <= rounds; n++) messages.push(...toolRound(n, 4_000));
  return messages;
}

describe('context collapse (layer 3)', () => {
  it('stages a span without changing the history; only a commit yields edits', () => {
    const messages = history(10);
    const staged = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: 3_000, keepRecentMessages: 4, newId: ids('s') });
    expect(staged.pending).toHaveLength(1);
    expect(projectCollapses(messages, staged).edits).toEqual([]);
    const drained = drainCollapses(messages, staged);
    expect(drained.committed).toBe(1);
    expect(drained.store).toEqual({ committed: staged.pending, pending: [] });
    const after = apply(messages, drained.edits);
    expect(after[0].uuid).toBe('first');
    expect(after[1]).toMatchObject({ type: 'user', isMeta: true, uuid: 's-1' });
    expect(isPaired(after)).toBe(true);
    expect(drained.tokensFreed).toBe(estimateTokens(messages) - estimateTokens(after));
  });

  it('projects committed spans idempotently and emits nothing', () => {
    const messages = history(10);
    const staged = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: 3_000, keepRecentMessages: 4, newId: ids() });
    const { store } = drainCollapses(messages, staged);
    const projected = projectCollapses(messages, store);
    expect(projected.emitted).toBeUndefined();
    const after = apply(messages, projected.edits);
    expect(projectCollapses(after, store).edits).toEqual([]);
  });

  it('never splits a pair or a response and leaves the recent messages alone', () => {
    const messages: Message[] = [
      user('first', 'task'),
      assistant('a1', 'r1', text('two reads')),
      assistant('a2', 'r1', toolUse('p'), toolUse('q')),
      toolResult('rp', 'p', 'x'.repeat(9_000)),
      toolResult('rq', 'q', 'x'.repeat(9_000)),
      ...toolRound(2, 9_000),
      ...toolRound(3, 100),
    ];
    const staged = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: 1, keepRecentMessages: 2, newId: ids() });
    const after = apply(messages, drainCollapses(messages, staged).edits);
    expect(isPaired(after)).toBe(true);
    expect(after.slice(-2)).toEqual(messages.slice(-2));
    expect(staged.pending[0]).toMatchObject({ fromUuid: 'a1', toUuid: 'rq' });
  });

  it('stages the next span after the ones already pending', () => {
    const messages = history(10);
    const once = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: 2_000, keepRecentMessages: 4, newId: ids() });
    const twice = stageCollapse({ messages, store: once, tokensToFree: 2_000, keepRecentMessages: 4, newId: ids('n') });
    expect(twice.pending).toHaveLength(2);
    const after = apply(messages, drainCollapses(messages, twice).edits);
    expect(after.filter((m) => m.type === 'user' && m.isMeta)).toHaveLength(2);
    expect(isPaired(after)).toBe(true);
  });

  it('writes a deterministic digest: counts, tools, first lines', () => {
    const digest = summarizeSpan([
      user('u', 'Please look at lexer.ts\nmore'),
      assistant('a', 'r', text('Reading it now'), toolUse('t', 'Read')),
      toolResult('r', 't', 'file text'),
    ]);
    expect(digest).toContain('3 messages (1 user, 1 assistant, 1 tool results)');
    expect(digest).toContain('Read×1');
    expect(digest).toContain('- user: Please look at lexer.ts');
    expect(digest).not.toContain('more');
  });

  it('runs as a layer: stages near the threshold, commits at it so autocompact has nothing to do', () => {
    const messages = history(20); // ~21k tokens
    const threshold = 20_000;
    const near = runContextCollapse({ messages, tokenCount: 18_500, store: EMPTY_COLLAPSE_STORE, autocompactThreshold: threshold, keepRecentMessages: 4, newId: ids() });
    expect(near.outcome.edits).toEqual([]);
    expect(near.store.pending).toHaveLength(1);
    const over = runContextCollapse({ messages, tokenCount: 21_000, store: near.store, autocompactThreshold: threshold, keepRecentMessages: 4, newId: ids() });
    expect(over.outcome.edits).toHaveLength(1);
    expect(21_000 - over.outcome.tokensFreed).toBeLessThan(threshold);
    expect(over.store.pending).toEqual([]);
  });

  it('forgets pending spans whose messages are gone when draining', () => {
    const messages = history(10);
    const staged = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: 2_000, keepRecentMessages: 4, newId: ids() });
    const drained = drainCollapses(messages.slice(-4), staged);
    expect(drained).toMatchObject({ committed: 0, edits: [], store: { committed: [], pending: [] } });
  });
});
