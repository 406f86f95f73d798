/**
 * Histories from outside are repaired before any request (docs/loop.md §11, §9.9), as Claude Code's normalization for the
 * API does: a tool_use with no result gets a synthetic error result, a stray tool_result is dropped, a repeated
 * tool_use id is answered once. Checked on the API turns `toApiMessages` builds from the repaired history.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toApiMessages } from '../../src/model/to-api-messages.ts';
import { repairToolPairing } from '../../src/messages/repair-tool-pairing.ts';
import type { Message } from '../../src/messages/types.ts';
import { assistantText, assistantToolUse, attachment, drive, reply, testConfig, toolResultMessage, userText } from '../helpers/index.ts';
import { propertyOptions } from '../property/settings.ts';

const repair = (messages: Message[]) => repairToolPairing(messages, { syntheticUuid: (n) => `fix${n}` });

/** Problems of the API turns: each tool_use id unique and answered exactly once in the next user turn, no stray result. */
function apiPairingProblems(messages: readonly Message[]): string[] {
  const turns = toApiMessages(messages);
  const problems: string[] = [];
  const seen = new Set<string>();
  turns.forEach((turn, i) => {
    if (turn.role === 'assistant') {
      const ids = turn.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
      for (const id of ids) {
        if (seen.has(id)) problems.push(`tool_use ${id} repeated`);
        seen.add(id);
      }
      const next = turns[i + 1];
      const results = next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [];
      for (const id of ids) if (results.filter((r) => r === id).length !== 1) problems.push(`tool_use ${id} not answered once`);
      return;
    }
    const previous = turns[i - 1];
    const asked = previous?.role === 'assistant' ? previous.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
    for (const block of turn.content) if (block.type === 'tool_result' && !asked.includes(block.tool_use_id)) problems.push(`stray ${block.tool_use_id}`);
  });
  return problems;
}

describe('repairToolPairing', () => {
  it('returns a paired history unchanged (the same array)', () => {
    const history = [userText('go'), assistantToolUse('t1', 'Read'), toolResultMessage('t1', 'ok'), assistantText('done')];
    const { messages, repairs } = repair(history);
    expect(messages).toBe(history);
    expect(repairs).toEqual({ answered: [], droppedResults: [], droppedToolUses: [] });
  });

  it('answers a tool_use with no result where its user turn ends (a resumed mid-tool log)', () => {
    const history = [userText('go'), assistantToolUse('t1', 'Read'), assistantToolUse('t2', 'Grep'), toolResultMessage('t2', 'found'), userText('next')];
    const { messages, repairs } = repair(history);
    expect(repairs.answered).toEqual(['t1']);
    expect(messages.map((m) => m.uuid)).toEqual([history[0].uuid, 'a:t1', 'a:t2', 'r:t2', 'u:next', 'fix1']);
    expect(messages[5]).toMatchObject({ type: 'user', isMeta: true, sourceToolUseId: 't1', message: { content: [{ tool_use_id: 't1', is_error: true }] } });
    expect(apiPairingProblems(messages)).toEqual([]);
  });

  it('answers a trailing tool_use before the next assistant turn, not after it', () => {
    const history = [userText('go'), assistantToolUse('t1', 'Read'), assistantText('hmm', { uuid: 'x', id: 'other' }), userText('again'), assistantText('ok', { uuid: 'y' })];
    // 'hmm' is the same assistant turn as t1 (consecutive assistant messages), so t1 is answered in the user turn after it.
    const { messages } = repair(history);
    expect(messages.map((m) => m.uuid)).toEqual([history[0].uuid, 'a:t1', 'x', 'u:again', 'fix1', 'y']);
    expect(apiPairingProblems(messages)).toEqual([]);
  });

  it('drops a stray tool_result (a history that starts after its tool_use was compacted away) but keeps its text', () => {
    const stray: Message = {
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'gone', content: 'old' }, { type: 'text', text: 'and then?' }] },
    };
    const { messages, repairs } = repair([stray, assistantText('Sure.')]);
    expect(repairs.droppedResults).toEqual(['gone']);
    expect(messages[0]).toEqual({ ...stray, message: { role: 'user', content: [{ type: 'text', text: 'and then?' }] } });
    expect(apiPairingProblems(messages)).toEqual([]);
  });

  it('answers a repeated tool_use id once: the later tool_use and its second result are removed', () => {
    const history = [
      userText('go'),
      assistantToolUse('t1', 'Read'),
      toolResultMessage('t1', 'first'),
      assistantToolUse('t1', 'Read', {}, { uuid: 'again' }),
      toolResultMessage('t1', 'second', { uuid: 'r2' }),
      assistantText('done'),
    ];
    const { messages, repairs } = repair(history);
    expect(repairs.droppedToolUses).toEqual(['t1']);
    expect(repairs.droppedResults).toEqual(['t1']);
    expect(messages.map((m) => m.uuid)).toEqual([history[0].uuid, 'a:t1', 'r:t1', 'a:done']);
    expect(apiPairingProblems(messages)).toEqual([]);
  });

  it('keeps the first of two results for one tool_use', () => {
    const history = [userText('go'), assistantToolUse('t1', 'Read'), toolResultMessage('t1', 'a'), toolResultMessage('t1', 'b', { uuid: 'r2' })];
    const { messages } = repair(history);
    expect(messages.map((m) => m.uuid)).toEqual([history[0].uuid, 'a:t1', 'r:t1']);
  });

  it('pairs any history: the API turns of a repaired random history have no pairing problem', () => {
    const ids = fc.constantFrom('t1', 't2', 't3', 't4');
    const piece = fc.oneof(
      ids.map((id) => ({ kind: 'use' as const, id })),
      ids.map((id) => ({ kind: 'result' as const, id })),
      fc.constant({ kind: 'text' as const, id: '' }),
      fc.constant({ kind: 'say' as const, id: '' }),
      fc.constant({ kind: 'attachment' as const, id: '' }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const history: Message[] = pieces.map((p, n) => {
          const uuid = `m${n}`;
          switch (p.kind) {
            case 'use':
              return assistantToolUse(p.id, 'Read', {}, { uuid });
            case 'result':
              return toolResultMessage(p.id, 'r', { uuid });
            case 'text':
              return userText(`text ${n}`, uuid);
            case 'say':
              return assistantText(`say ${n}`, { uuid });
            case 'attachment':
              return attachment({ type: 'queued_command', prompt: `queued ${n}` }, uuid);
          }
        });
        const { messages } = repair(history);
        expect(apiPairingProblems(messages)).toEqual([]);
        // Idempotent: a repaired history needs no further repair.
        expect(repair(messages).messages).toBe(messages);
      }),
      propertyOptions(300),
    );
  });
});

describe('the loop repairs initial messages before the first request (docs/loop.md §11)', () => {
  it('a caller history with an unanswered tool_use and a stray result is sent paired', () => {
    const history = [userText('fix it'), assistantToolUse('t1', 'Read'), userText('what happened?'), toolResultMessage('ghost', 'x')];
    const run = drive({ messages: history }, testConfig(), { model: [reply(assistantText('Let me retry.'))] });
    expect(run.terminal?.reason).toBe('completed');
    const sent = run.requests[0].messages;
    expect(apiPairingProblems(sent)).toEqual([]);
    expect(sent.some((m) => m.type === 'user' && typeof m.message.content !== 'string' && m.message.content.some((b) => b.type === 'tool_result' && b.tool_use_id === 't1'))).toBe(true);
  });
});
