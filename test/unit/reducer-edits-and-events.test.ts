/**
 * The two data contracts at the edge of the reducer:
 * - the edits a context layer returns (docs/loop.md §6): microcompact / tool-result budget replace one tool result's
 *   content by tool_use id, snip removes messages, context collapse replaces a span of history with its summary;
 *   an edit that does not apply leaves the history as it was;
 * - `parseEvent`, the boundary check of every event (docs/loop.md §2: events are plain JSON data): every event of the
 *   catalogue passes unchanged; a malformed one is rejected with the path of what is wrong.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/messages/types.ts';
import { applyEdits } from '../../src/rules/edits.ts';
import { InvalidEventError, parseEvent } from '../../src/data/event-schema.ts';
import { ALL_EVENT_SAMPLES } from '../property/arbitraries/events.ts';
import { assistantText, assistantToolUse, compactSummary, toolResultMessage, userText } from '../helpers/index.ts';

const history: Message[] = [
  userText('q1', 'u1'),
  assistantToolUse('t1', 'Read', {}, { uuid: 'a1' }),
  toolResultMessage('t1', 'long file contents', { uuid: 'r1' }),
  assistantToolUse('t2', 'Read', {}, { uuid: 'a2' }),
  toolResultMessage('t2', 'other contents', { uuid: 'r2' }),
  assistantText('answer', { uuid: 'a3' }),
];

describe('context-layer edits (docs/loop.md §6)', () => {
  it('replace_tool_result changes only the result of that tool_use', () => {
    const next = applyEdits(history, [{ op: 'replace_tool_result', toolUseId: 't1', content: '[cleared]' }]);
    expect(next[2]).toMatchObject({ uuid: 'r1', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: '[cleared]' }] } });
    expect(next.filter((_, i) => i !== 2)).toEqual(history.filter((_, i) => i !== 2));
    expect(history[2]).toEqual(toolResultMessage('t1', 'long file contents', { uuid: 'r1' })); // not mutated
  });

  it('replace_tool_result for an unknown id, or on a plain-text user message, changes nothing', () => {
    expect(applyEdits(history, [{ op: 'replace_tool_result', toolUseId: 'nope', content: 'x' }])).toEqual(history);
    expect(applyEdits([userText('plain', 'p')], [{ op: 'replace_tool_result', toolUseId: 't1', content: 'x' }])).toEqual([userText('plain', 'p')]);
  });

  it('remove drops exactly the listed messages', () => {
    expect(applyEdits(history, [{ op: 'remove', uuids: ['u1', 'a3'] }]).map((m) => m.uuid)).toEqual(['a1', 'r1', 'a2', 'r2']);
  });

  it('replace_range replaces the span from..to, both included, with the replacement', () => {
    const summary = compactSummary('collapsed');
    const next = applyEdits(history, [{ op: 'replace_range', fromUuid: 'a1', toUuid: 'r2', replacement: summary }]);
    expect(next).toEqual([history[0], ...summary, history[5]]);
  });

  it('replace_range of one message, at the very start', () => {
    const next = applyEdits(history, [{ op: 'replace_range', fromUuid: 'u1', toUuid: 'u1', replacement: [userText('new', 'n')] }]);
    expect(next.map((m) => m.uuid)).toEqual(['n', 'a1', 'r1', 'a2', 'r2', 'a3']);
  });

  it('replace_range with an unknown end, or an end before its start, changes nothing', () => {
    expect(applyEdits(history, [{ op: 'replace_range', fromUuid: 'nope', toUuid: 'r2', replacement: [] }])).toEqual(history);
    expect(applyEdits(history, [{ op: 'replace_range', fromUuid: 'a1', toUuid: 'nope', replacement: [] }])).toEqual(history);
    expect(applyEdits(history, [{ op: 'replace_range', fromUuid: 'r2', toUuid: 'a1', replacement: [] }])).toEqual(history);
  });

  it('edits apply in order, each to the result of the one before', () => {
    const next = applyEdits(history, [
      { op: 'remove', uuids: ['u1'] },
      { op: 'replace_range', fromUuid: 'a1', toUuid: 'r1', replacement: [] },
    ]);
    expect(next.map((m) => m.uuid)).toEqual(['a2', 'r2', 'a3']);
  });
});

describe('parseEvent (the boundary check)', () => {
  it.each(ALL_EVENT_SAMPLES.map((event) => [event.type, event] as const))('accepts a %s event unchanged', (_type, event) => {
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('rejects a malformed event with the path of the problem and where it was read', () => {
    let error: unknown;
    try {
      parseEvent({ type: 'stop_hooks_result', blockingErrors: 'no', preventContinuation: false }, 'line 3');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidEventError);
    const invalid = error as InvalidEventError;
    expect(invalid.code).toBe('INVALID_EVENT');
    expect(invalid.where).toBe('line 3');
    expect(invalid.issues.map((i) => i.path)).toEqual(['blockingErrors']);
    expect(invalid.message).toContain('line 3');
    expect(invalid.message).toContain('blockingErrors');
  });

  it.each([
    ['an unknown type', { type: 'nope' }],
    ['negative usage', { type: 'model_done', usage: { input_tokens: -1, output_tokens: 0 } }],
    ['a fractional commit count', { type: 'collapse_drain_result', committed: 1.5, edits: [] }],
    ['an unknown API-error kind', { type: 'model_message', message: { ...assistantText('x'), apiError: { kind: 'weird', text: 'x' } } }],
    ['an unknown context layer', { type: 'context_layer_result', layer: 'magic', edits: [], tokensFreed: 0 }],
    ['an unknown edit', { type: 'collapse_drain_result', committed: 1, edits: [{ op: 'explode' }] }],
    ['a tool result that is not a user message', { type: 'tool_result', toolUseId: 't1', message: assistantText('x') }],
  ])('rejects %s', (_label, data) => {
    expect(() => parseEvent(data)).toThrow(InvalidEventError);
  });
});
