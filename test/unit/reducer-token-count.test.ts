/**
 * Token counting (docs/loop.md §6 "token count with estimation") and tool batching (docs/loop.md §7.3), the two pure helpers of
 * the reducer that the loop's decisions (thresholds, blocking check, concurrent batches) rest on:
 * - the last API response's usage (input + cache reads + cache writes + output) is authoritative;
 * - only what comes after that response's first block is estimated, characters / 4 rounded to the nearest token,
 *   per block, with no per-message overhead (Claude Code 2.1.88 `services/tokenEstimation.ts:203-208, 327-431`);
 * - the response's later blocks are estimated on top of its reported output (`utils/tokens.ts:226-261` anchors at
 *   the response's first block and estimates everything after it);
 * - API-error messages are never sent to the model, so they add nothing;
 * - consecutive concurrency-safe calls form one concurrent batch; every other call runs alone, in order.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/messages/types.ts';
import { partitionToolCalls } from '../../src/rules/tool-batching.ts';
import { estimateTokens, tokenCountWithEstimation, usageTokens } from '../../src/rules/tokens.ts';
import { apiError, assistantBlock, assistantText, assistantThinking, assistantToolUse, attachment, toolResultMessage, usage, userText } from '../helpers/index.ts';

const text = (chars: number) => 'x'.repeat(chars);

describe('token count with estimation (docs/loop.md §6)', () => {
  it('usage counts input, cache reads, cache writes and output', () => {
    expect(usageTokens(usage(1_000, 50, { read: 200, creation: 300 }))).toBe(1_550);
  });

  it('the reported usage is authoritative for everything up to the response', () => {
    const history: Message[] = [userText(text(400_000)), assistantText('ok', { id: 'r1', usage: usage(1_000, 50, { read: 200, creation: 300 }) })];
    expect(tokenCountWithEstimation(history)).toBe(1_550);
  });

  it('messages after the response are estimated and added; characters / 4, rounded, no overhead (tokenEstimation.ts:203-208)', () => {
    const base: Message[] = [userText('hi'), assistantText('ok', { id: 'r1', usage: usage(1_000, 50) })];
    const withText = (chars: number) => tokenCountWithEstimation([...base, userText(text(chars), `u${chars}`)]);
    expect(withText(4)).toBe(1_051);
    expect(withText(5)).toBe(1_051);
    expect(withText(6)).toBe(1_052); // 1.5 rounds up
    expect(withText(9)).toBe(1_052);
    expect(withText(400)).toBe(1_150);
    expect(estimateTokens([userText(text(1), 'a')])).toBe(0);
  });

  it('a tool result is estimated by its content, string or blocks', () => {
    const short = estimateTokens([toolResultMessage('t1', text(40))]);
    const long = estimateTokens([toolResultMessage('t1', text(440))]);
    expect(long - short).toBe(100);
  });

  it('a one-block response counts as its reported usage, however long its text; API errors add nothing (tokens.ts:226-261)', () => {
    const long = assistantText(text(4_000), { id: 'r1', usage: usage(1_000, 10) });
    expect(tokenCountWithEstimation([userText('hi'), long])).toBe(1_010);
    const small = assistantText('ok', { id: 'r1', usage: usage(1_000, 500) });
    expect(tokenCountWithEstimation([userText('hi'), small])).toBe(1_500);
    expect(tokenCountWithEstimation([userText('hi'), small, apiError('max_output_tokens')])).toBe(1_500);
    expect(estimateTokens([apiError('prompt_too_long', text(4_000))])).toBe(0);
  });

  it('without any reported usage the whole history is estimated, and more text never counts less', () => {
    const a = tokenCountWithEstimation([userText(text(100), 'a')]);
    const b = tokenCountWithEstimation([userText(text(100), 'a'), userText(text(100), 'b')]);
    expect(a).toBeGreaterThanOrEqual(25);
    expect(b).toBe(2 * a);
  });
});

describe('every kind of content counts by its size (docs/loop.md §6: characters / 4, conservatively)', () => {
  const userBlocks = (content: unknown[], uuid: string): Message => ({ type: 'user', uuid, message: { role: 'user', content } }) as Message;
  const growth = (make: (chars: number) => Message) => estimateTokens([make(440)]) - estimateTokens([make(40)]);

  it.each([
    ['text', (n: number) => assistantText(text(n), { uuid: `t${n}` })],
    ['thinking', (n: number) => assistantThinking(text(n), { uuid: `k${n}` })],
    ['redacted thinking', (n: number) => assistantBlock({ type: 'redacted_thinking', data: text(n) }, `d${n}`)],
    ['tool_use input', (n: number) => assistantToolUse(`u${n}`, 'Write', { body: text(n) })],
    ['tool_result as a string', (n: number) => toolResultMessage('t1', text(n))],
    ['tool_result as text blocks', (n: number) => userBlocks([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: text(n) }] }], `b${n}`)],
    ['a user string', (n: number) => userText(text(n), `s${n}`)],
    ['an attachment', (n: number) => attachment({ type: 'queued_command', prompt: text(n) }, `a${n}`)],
    ['a compaction summary on a boundary', (n: number) => ({ type: 'system', uuid: `y${n}`, subtype: 'compact_boundary', content: 'compacted', data: { summary: text(n) } }) as Message],
  ])('%s: 400 more characters are 100 more tokens', (_label, make) => {
    expect(growth(make)).toBe(100);
  });

  it('an image or document costs the same whatever its size, and far more than its few characters', () => {
    const media = (type: 'image' | 'document', data: string) => ({ type, source: { type: 'base64', media_type: 'image/png', data } });
    const image = (data: string) => userBlocks([media('image', data)], `i${data.length}`);
    expect(estimateTokens([image('x')])).toBe(estimateTokens([image(text(4_000))]));
    expect(estimateTokens([userBlocks([media('document', 'x')], 'p')])).toBe(estimateTokens([image('x')]));
    expect(estimateTokens([image('x')])).toBeGreaterThanOrEqual(1_000);
    expect(estimateTokens([userBlocks([media('image', 'x'), { type: 'text', text: text(400) }], 'mix')])).toBe(estimateTokens([image('x')]) + 100);
  });
});

describe('the anchor of the count is the first block of the last response with usage (docs/loop.md §6)', () => {
  it('a response at the very start of the history still anchors the count', () => {
    const history: Message[] = [assistantText('ok', { id: 'r1', usage: usage(1_000, 50) }), userText(text(400), 'u1')];
    expect(tokenCountWithEstimation(history)).toBe(1_050 + estimateTokens([history[1]]));
  });

  it('everything after the response\'s first block is estimated on top of its usage, even its own later blocks (tokens.ts:232-256)', () => {
    const first = assistantToolUse('t1', 'Read', { path: text(2_000) }, { id: 'r1', uuid: 'b1' });
    const result = toolResultMessage('t1', text(400));
    const last = assistantText(text(40), { id: 'r1', uuid: 'b2', usage: usage(1_000, 10) });
    expect(tokenCountWithEstimation([userText('hi'), first, result, last])).toBe(1_010 + 100 + 10);
  });

  it('a message that never reaches the API counts nothing: a system note, a boundary without a summary', () => {
    expect(estimateTokens([{ type: 'system', uuid: 's', subtype: 'warning', content: text(400) } as Message])).toBe(0);
    expect(estimateTokens([{ type: 'system', uuid: 'b', subtype: 'compact_boundary', content: text(400) } as Message])).toBe(0);
  });

  it('a later reply without usage is estimated on top, not hidden in the previous reply’s output', () => {
    const answered = assistantText('ok', { id: 'r1', usage: usage(1_000, 500) });
    const later = assistantText(text(400), { id: 'r2', uuid: 'later' });
    expect(tokenCountWithEstimation([userText('hi'), answered, userText('more', 'u2'), later])).toBe(
      1_500 + estimateTokens([userText('more', 'u2'), later]),
    );
  });

  it('the walk back stops at the previous response: an earlier reply is covered by the reported input', () => {
    const boundary = { type: 'system', uuid: 'boundary', subtype: 'compact_boundary', content: 'compacted' } as Message;
    const earlier = assistantText(text(4_000), { id: 'r0', uuid: 'earlier' });
    const answered = assistantText('ok', { id: 'r1', usage: usage(1_000, 50) });
    expect(tokenCountWithEstimation([boundary, userText('q1', 'u1'), earlier, userText('q2', 'u2'), answered])).toBe(1_050);
  });

  it('a response whose first block opens the history is counted from that block', () => {
    const first = assistantText(text(4_000), { id: 'r1', uuid: 'b1' });
    const last = assistantText(text(40), { id: 'r1', uuid: 'b2', usage: usage(1_000, 10) });
    expect(tokenCountWithEstimation([first, last])).toBe(1_010 + 10);
  });

  it('an API error carrying usage is not the anchor, and attachments after the anchor are estimated', () => {
    const answered = assistantText('ok', { id: 'r1', usage: usage(1_000, 50) });
    const error = apiError('prompt_too_long', 'too long', { usage: usage(900_000, 0) });
    const note = attachment({ type: 'queued_command', prompt: text(40) });
    expect(tokenCountWithEstimation([userText('hi'), answered, error, note])).toBe(1_050 + estimateTokens([note]));
  });
});

describe('tool batching (docs/loop.md §7.3)', () => {
  const uses = ['a', 'b', 'c', 'd', 'e'].map((id) => {
    const message = assistantToolUse(id, 'Tool', {});
    return message.message.content[0] as Extract<(typeof message.message.content)[number], { type: 'tool_use' }>;
  });
  const ids = (batches: ReturnType<typeof partitionToolCalls>) => batches.map((b) => [b.concurrent, b.toolUses.map((t) => t.id)]);

  it('consecutive safe calls share one concurrent batch; unsafe calls run alone, in order', () => {
    const batches = partitionToolCalls(uses, { a: true, b: true, d: true, e: true });
    expect(ids(batches)).toEqual([
      [true, ['a', 'b']],
      [false, ['c']],
      [true, ['d', 'e']],
    ]);
  });

  it('unsafe calls never share a batch, and ids not listed (or not exactly true) are unsafe', () => {
    expect(ids(partitionToolCalls(uses.slice(0, 3), { a: false }))).toEqual([
      [false, ['a']],
      [false, ['b']],
      [false, ['c']],
    ]);
  });

  it('no calls, no batches', () => {
    expect(partitionToolCalls([], {})).toEqual([]);
  });
});
