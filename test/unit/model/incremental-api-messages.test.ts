/**
 * The incremental converter against the full one: on random histories that grow, get edited in the middle
 * (microcompact, tool-result budget), shrink (compaction) or alternate between keys, every result deep-equals
 * `toApiMessages` of the same history; and converting a grown history touches only the new messages.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createApiMessageConverter } from '../../../src/effects/model/incremental-api-messages.ts';
import { toApiMessages } from '../../../src/effects/model/to-api-messages.ts';
import type { Message } from '../../../src/messages/types.ts';

let uuid = 0;
const next = () => `m${++uuid}`;

const messageArb: fc.Arbitrary<() => Message> = fc.oneof(
  fc.string({ maxLength: 3 }).map((text) => (): Message => ({ type: 'user', uuid: next(), message: { role: 'user', content: text } })),
  fc.nat(3).map((id) => (): Message => ({ type: 'user', uuid: next(), message: { role: 'user', content: [{ type: 'text', text: 'note' }, { type: 'tool_result', tool_use_id: `t${id}`, content: 'ok' }] }, sourceToolUseId: `t${id}` })),
  fc.constantFrom('', 'hi', 'x').map((text) => (): Message => ({ type: 'assistant', uuid: next(), message: { id: 'msg', role: 'assistant', model: 'm', content: [{ type: 'text', text }], stop_reason: null } })),
  fc.nat(3).map((id) => (): Message => ({ type: 'assistant', uuid: next(), message: { id: 'msg', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: `t${id}`, name: 'Read', input: {} }], stop_reason: 'tool_use' } })),
  fc.constant((): Message => ({ type: 'assistant', uuid: next(), message: { id: 'e', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'API error' }], stop_reason: null }, apiError: { kind: 'other', text: 'boom' } })),
  fc.constant((): Message => ({ type: 'attachment', uuid: next(), attachment: { type: 'queued_command', prompt: 'also this' } })),
  fc.constant((): Message => ({ type: 'attachment', uuid: next(), attachment: { type: 'max_turns_reached', maxTurns: 1, turnCount: 1 } })),
  fc.constant((): Message => ({ type: 'system', uuid: next(), subtype: 'compact_boundary', content: 'compacted', data: { summary: 'earlier work' } })),
  fc.constant((): Message => ({ type: 'system', uuid: next(), subtype: 'warning', content: 'careful' })),
  fc.constant((): Message => ({ type: 'tombstone', uuid: next(), targetUuid: 'x' })),
);

type Operation =
  | { op: 'append'; messages: Array<() => Message> }
  | { op: 'edit'; at: number; message: () => Message }
  | { op: 'truncate'; keep: number }
  /** A new object equal to the old one (as the user-context message is, in every request). */
  | { op: 'copy'; at: number }
  /** The same uuid with other content: must not be taken for unchanged. */
  | { op: 'rewrite'; at: number; message: () => Message }
  | { op: 'other_key' };

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 5, arbitrary: fc.array(messageArb, { minLength: 1, maxLength: 4 }).map((messages) => ({ op: 'append' as const, messages })) },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(40), message: messageArb }).map((r) => ({ op: 'edit' as const, ...r })) },
  { weight: 1, arbitrary: fc.nat(40).map((keep) => ({ op: 'truncate' as const, keep })) },
  { weight: 1, arbitrary: fc.nat(40).map((at) => ({ op: 'copy' as const, at })) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(40), message: messageArb }).map((r) => ({ op: 'rewrite' as const, ...r })) },
  { weight: 1, arbitrary: fc.constant({ op: 'other_key' as const }) },
);

describe('createApiMessageConverter', () => {
  test.prop([fc.array(operationArb, { minLength: 1, maxLength: 25 })], { numRuns: 300 })('equals toApiMessages after every change', (operations) => {
    const convert = createApiMessageConverter();
    let history: Message[] = [];
    let other: Message[] = [];
    for (const operation of operations) {
      if (operation.op === 'append') history = [...history, ...operation.messages.map((make) => make())];
      if (operation.op === 'edit' && history.length > 0) {
        const at = operation.at % history.length;
        history = [...history.slice(0, at), operation.message(), ...history.slice(at + 1)];
      }
      if (operation.op === 'truncate') history = history.slice(0, operation.keep % (history.length + 1));
      if ((operation.op === 'copy' || operation.op === 'rewrite') && history.length > 0) {
        const at = operation.at % history.length;
        const replacement = operation.op === 'copy' ? structuredClone(history[at]) : { ...operation.message(), uuid: history[at].uuid };
        history = [...history.slice(0, at), replacement, ...history.slice(at + 1)];
      }
      if (operation.op === 'other_key') {
        other = [...other, ...history.slice(-2)];
        expect(convert(other, 'compact')).toEqual(toApiMessages(other));
      }
      expect(convert(history, 'main')).toEqual(toApiMessages(history));
    }
  });

  it('converts only the messages after the turn that was still open', () => {
    const convert = createApiMessageConverter();
    const base: Message[] = [];
    for (let i = 0; i < 1_000; i++) {
      base.push(i % 2 === 0
        ? { type: 'user', uuid: `u${i}`, message: { role: 'user', content: `q${i}` } }
        : { type: 'assistant', uuid: `a${i}`, message: { id: `msg${i}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: `a${i}` }], stop_reason: 'end_turn' } });
    }
    convert(base);
    // Reading `message` is what converting a message does; count the reads on a grown history.
    let reads = 0;
    const watched = base.map((message) => new Proxy(message, { get: (target, key) => ((key === 'message' && (reads += 1)), Reflect.get(target, key)) }));
    const grownFromWatched = [...watched, { type: 'user', uuid: 'new', message: { role: 'user', content: 'next' } } as Message];
    convert(watched);
    const afterFull = reads;
    expect(afterFull).toBeGreaterThanOrEqual(1_000);
    reads = 0;
    const grown = convert(grownFromWatched);
    const readsForGrowth = reads;
    expect(readsForGrowth).toBeLessThanOrEqual(10);
    expect(grown).toEqual(toApiMessages(grownFromWatched));
  });

  it('takes a fresh copy of the first message (the user context, rebuilt for every request) for unchanged', () => {
    const convert = createApiMessageConverter();
    const context = (): Message => ({ type: 'user', uuid: 'run:context', message: { role: 'user', content: '# claudeMd\nrules' }, isMeta: true });
    const base: Message[] = [];
    for (let i = 0; i < 1_000; i++) {
      base.push(i % 2 === 0
        ? { type: 'user', uuid: `u${i}`, message: { role: 'user', content: `q${i}` } }
        : { type: 'assistant', uuid: `a${i}`, message: { id: `msg${i}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: `a${i}` }], stop_reason: 'end_turn' } });
    }
    let reads = 0;
    const watched = base.map((message) => new Proxy(message, { get: (target, key) => ((key === 'message' && (reads += 1)), Reflect.get(target, key)) }));
    convert([context(), ...watched]);
    reads = 0;
    const grown = [context(), ...watched, { type: 'user', uuid: 'new', message: { role: 'user', content: 'next' } } as Message];
    expect(convert(grown)).toEqual(toApiMessages(grown));
    // The toEqual above read every message through the full conversion; count only the converter's reads.
    reads = 0;
    const again = [context(), ...watched, grown[grown.length - 1], { type: 'assistant', uuid: 'new2', message: { id: 'n2', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' } } as Message];
    const result = convert(again);
    expect(reads).toBeLessThanOrEqual(10);
    expect(result).toEqual(toApiMessages(again));
  });
});
