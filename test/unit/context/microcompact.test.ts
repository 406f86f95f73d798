import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/config.ts';
import { CLEARED_TOOL_RESULT, lastAssistantTimestamp, microcompact } from '../../../src/context/microcompact.ts';
import type { Message } from '../../../src/messages/types.ts';
import { apply, assistant, resultContent, text, thinking, toolRound, toolUse, toolResult, user } from './build.ts';

const config = DEFAULT_CONFIG.microcompact; // keep 5, idle gap 1 h, Read/Bash/...
const HOUR = 3_600_000;
const t0 = 1_700_000_000_000;

function rounds(n: number, name = 'Read'): Message[] {
  const messages: Message[] = [user('first', 'task')];
  for (let i = 1; i <= n; i++) messages.push(...toolRound(i, 800, name));
  return messages;
}

describe('microcompact (layer 2)', () => {
  it('does nothing before the idle gap has passed, or when the last reply time is unknown', () => {
    const messages = rounds(8);
    expect(microcompact({ messages, now: t0 + HOUR - 1, lastAssistantAt: t0, config }).edits).toEqual([]);
    expect(microcompact({ messages, now: t0 + 5 * HOUR, lastAssistantAt: undefined, config }).edits).toEqual([]);
  });

  it('after the idle gap clears all but the keepRecent latest compactable results', () => {
    const messages = rounds(8);
    const out = microcompact({ messages, now: t0 + HOUR + 1, lastAssistantAt: t0, config });
    const after = apply(messages, out.edits);
    for (const id of ['t1', 't2', 't3']) expect(resultContent(after, id)).toBe(CLEARED_TOOL_RESULT);
    for (const id of ['t4', 't5', 't6', 't7', 't8']) expect(resultContent(after, id)).toBe('x'.repeat(800));
    expect(out.tokensFreed).toBe(Math.floor((3 * (800 - CLEARED_TOOL_RESULT.length)) / 4));
  });

  it('leaves results of tools that are not compactable', () => {
    const messages = rounds(8, 'Task');
    expect(microcompact({ messages, now: t0 + 2 * HOUR, lastAssistantAt: t0, config }).edits).toEqual([]);
  });

  it('is idempotent: already cleared results are not edited again', () => {
    const messages = rounds(8);
    const first = microcompact({ messages, now: t0 + 2 * HOUR, lastAssistantAt: t0, config });
    const again = microcompact({ messages: apply(messages, first.edits), now: t0 + 2 * HOUR, lastAssistantAt: t0, config });
    expect(again).toEqual({ edits: [], tokensFreed: 0 });
  });

  it('never touches thinking blocks or any assistant message', () => {
    const messages: Message[] = [
      user('first', 'task'),
      assistant('a0', 'r0', thinking('deep thoughts'), text('plan'), toolUse('t0', 'Bash')),
      toolResult('u0', 't0', 'y'.repeat(500)),
      ...rounds(6).slice(1),
    ];
    const after = apply(messages, microcompact({ messages, now: t0 + 2 * HOUR, lastAssistantAt: t0, config }).edits);
    expect(resultContent(after, 't0')).toBe(CLEARED_TOOL_RESULT);
    expect(after.filter((m) => m.type === 'assistant')).toEqual(messages.filter((m) => m.type === 'assistant'));
  });

  it('reads an optional numeric timestamp of the last assistant message', () => {
    const stamped = { ...assistant('a', 'r', text('hi')), timestamp: t0 } as Message;
    expect(lastAssistantTimestamp([user('u', 'x'), stamped, user('v', 'y')])).toBe(t0);
    expect(lastAssistantTimestamp([user('u', 'x'), assistant('a', 'r', text('hi'))])).toBeUndefined();
  });

  it('fires at exactly the idle gap, the gap being a minimum (microCompact.ts:438-441)', () => {
    const out = microcompact({ messages: rounds(8), now: t0 + HOUR, lastAssistantAt: t0, config });
    expect(out.edits).toHaveLength(3);
  });

  it('with a gap threshold of 0 clears before every request, even with no time passed', () => {
    const out = microcompact({ messages: rounds(8), now: t0, lastAssistantAt: t0, config: { ...config, idleGapMs: 0 } });
    expect(out.edits).toHaveLength(3);
  });

  it('keeps at least the latest compactable result whatever keepRecent says (microCompact.ts:456-460)', () => {
    const messages = rounds(3);
    const out = microcompact({ messages, now: t0 + 2 * HOUR, lastAssistantAt: t0, config: { ...config, keepRecent: 0 } });
    const after = apply(messages, out.edits);
    expect(['t1', 't2', 't3'].map((id) => resultContent(after, id) === CLEARED_TOOL_RESULT)).toEqual([true, true, false]);
  });

  it('clears the shell tools, PowerShell included, and Glob, as the original set (microCompact.ts:41-49)', () => {
    for (const name of ['Read', 'Bash', 'PowerShell', 'Grep', 'Glob', 'WebSearch', 'WebFetch', 'Edit', 'Write']) {
      expect(microcompact({ messages: rounds(6, name), now: t0 + 2 * HOUR, lastAssistantAt: t0, config }).edits).toHaveLength(1);
    }
  });
});
