import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { selectKeptMessages } from '../../../src/context/autocompact.ts';
import { drainCollapses, EMPTY_COLLAPSE_STORE, stageCollapse } from '../../../src/context/context-collapse.ts';
import { safeCutPoints } from '../../../src/context/safe-cuts.ts';
import { snipHistory } from '../../../src/context/snip.ts';
import type { Message } from '../../../src/messages/types.ts';
import { apply, assistant, ids, isPaired, text, thinking, toolUse, toolResult, user } from './build.ts';

/** A random, well-paired history: prompts, responses of 1-3 blocks with 0-3 tool calls, results in any order. */
const historyArb = fc
  .array(
    fc.record({
      prompt: fc.boolean(),
      thinks: fc.boolean(),
      tools: fc.integer({ min: 0, max: 3 }),
      sizes: fc.array(fc.integer({ min: 0, max: 6_000 }), { minLength: 3, maxLength: 3 }),
      reverse: fc.boolean(),
    }),
    { minLength: 1, maxLength: 25 },
  )
  .map((rounds) => {
    const messages: Message[] = [user('first', 'task')];
    rounds.forEach((r, n) => {
      if (r.prompt) messages.push(user(`p${n}`, 'more'));
      if (r.thinks) messages.push(assistant(`th${n}`, `r${n}`, thinking('hmm')));
      const uses = Array.from({ length: r.tools }, (_, k) => `t${n}_${k}`);
      messages.push(assistant(`a${n}`, `r${n}`, text('ok'), ...uses.map((id) => toolUse(id))));
      const results = uses.map((id, k) => toolResult(`res_${id}`, id, 'x'.repeat(r.sizes[k])));
      messages.push(...(r.reverse ? results.reverse() : results));
    });
    return messages;
  });

describe('safe cut points', () => {
  it('forbids cuts inside a pair and inside one response', () => {
    const messages: Message[] = [
      user('u', 'x'),
      assistant('a1', 'r1', thinking('t')),
      assistant('a2', 'r1', toolUse('t1')),
      toolResult('tr', 't1', 'ok'),
      user('v', 'y'),
    ];
    expect(safeCutPoints(messages)).toEqual([true, true, false, false, true, true]);
  });

  test.prop([historyArb, fc.integer({ min: 0, max: 40_000 })])('snip never breaks pairing and keeps the first message', (messages, tokens) => {
    const out = snipHistory({ messages, tokenCount: tokens, autocompactThreshold: 10_000, config: { triggerRatio: 0.9, keepRecentMessages: 3 }, newId: ids() });
    const after = apply(messages, out.edits);
    expect(isPaired(after)).toBe(true);
    expect(after[0]).toBe(messages[0]);
  });

  test.prop([historyArb, fc.integer({ min: 0, max: 20_000 })])('compaction keeps a paired suffix', (messages, budget) => {
    const kept = selectKeptMessages(messages, budget);
    expect(isPaired(kept)).toBe(true);
  });

  test.prop([historyArb, fc.integer({ min: 1, max: 20_000 })])('collapse never breaks pairing', (messages, toFree) => {
    const store = stageCollapse({ messages, store: EMPTY_COLLAPSE_STORE, tokensToFree: toFree, keepRecentMessages: 2, newId: ids() });
    const after = apply(messages, drainCollapses(messages, store).edits);
    expect(isPaired(after)).toBe(true);
    expect(after[0]).toBe(messages[0]);
  });
});
