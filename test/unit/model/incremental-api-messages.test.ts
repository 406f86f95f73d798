/**
 * The incremental converter against the full one: on random histories that grow, get edited in the middle
 * (microcompact, tool-result budget), shrink (compaction), alternate between keys or pass to another run, with
 * or without the reducer's history revision, and with the last turns of each result replaced as prompt caching
 * does, every result deep-equals `toApiMessages` of the same history; converting a grown history touches only
 * the new messages; an unchanged revision skips the comparison; a list lent to a run is reused only by it.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createApiMessageConverter } from '../../../src/model/incremental-api-messages.ts';
import { toApiMessages, type ApiMessageParam } from '../../../src/model/to-api-messages.ts';
import type { Message } from '../../../src/messages/types.ts';

let uuid = 0;
const next = () => `m${++uuid}`;

/** Alternating questions and answers. */
function longHistory(length: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < length; i++) {
    messages.push(i % 2 === 0
      ? { type: 'user', uuid: `u${i}`, message: { role: 'user', content: `q${i}` } }
      : { type: 'assistant', uuid: `a${i}`, message: { id: `msg${i}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: `a${i}` }], stop_reason: 'end_turn' } });
  }
  return messages;
}

const messageArb: fc.Arbitrary<() => Message> = fc.oneof(
  fc.string({ maxLength: 3 }).map((text) => (): Message => ({ type: 'user', uuid: next(), message: { role: 'user', content: text } })),
  fc.nat(3).map((id) => (): Message => ({ type: 'user', uuid: next(), message: { role: 'user', content: [{ type: 'text', text: 'note' }, { type: 'tool_result', tool_use_id: `t${id}`, content: 'ok' }] }, sourceToolUseId: `t${id}` })),
  fc.constantFrom('', 'hi', 'x').map((text) => (): Message => ({ type: 'assistant', uuid: next(), message: { id: 'msg', role: 'assistant', model: 'm', content: [{ type: 'text', text }], stop_reason: null } })),
  fc.nat(3).map((id) => (): Message => ({ type: 'assistant', uuid: next(), message: { id: 'msg', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: `t${id}`, name: 'Read', input: {} }], stop_reason: 'tool_use' } })),
  // A reply cut inside a tool_use leaves its thinking alone: that turn is dropped and its neighbours merge.
  fc.constant((): Message => ({ type: 'assistant', uuid: next(), message: { id: 'th', role: 'assistant', model: 'm', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }], stop_reason: null } })),
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
  /** A new object equal to the old one (a history that went through JSON). */
  | { op: 'copy'; at: number }
  /** The same uuid with other content: must not be taken for unchanged. */
  | { op: 'rewrite'; at: number; message: () => Message }
  | { op: 'other_key' }
  /** Another run (a new run token) starts from this history, its revision counting from 0 again. */
  | { op: 'new_run' };

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 5, arbitrary: fc.array(messageArb, { minLength: 1, maxLength: 4 }).map((messages) => ({ op: 'append' as const, messages })) },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(40), message: messageArb }).map((r) => ({ op: 'edit' as const, ...r })) },
  { weight: 1, arbitrary: fc.nat(40).map((keep) => ({ op: 'truncate' as const, keep })) },
  { weight: 1, arbitrary: fc.nat(40).map((at) => ({ op: 'copy' as const, at })) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(40), message: messageArb }).map((r) => ({ op: 'rewrite' as const, ...r })) },
  { weight: 1, arbitrary: fc.constant({ op: 'other_key' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'new_run' as const }) },
);

/** What prompt caching does to a list it gets: the last `count` entries replaced by marked copies. */
function markTail(list: ApiMessageParam[], count: number): void {
  for (let i = Math.max(0, list.length - count); i < list.length; i++) list[i] = { ...list[i], content: [...list[i].content, { type: 'text', text: 'marked' }] } as ApiMessageParam;
}

describe('createApiMessageConverter', () => {
  test.prop([fc.array(operationArb, { minLength: 1, maxLength: 25 }), fc.boolean(), fc.integer({ min: 0, max: 4 })], { numRuns: 300 })(
    'equals toApiMessages after every change, with and without revisions; lists lent to a run stay as that run left them',
    (operations, withRevision, marked) => {
      const convert = createApiMessageConverter();
      let history: Message[] = [];
      let other: Message[] = [];
      // The reducer's promise: the revision changes whenever the history changes other than by growing.
      let run = {};
      let revision = 0;
      let lent: { list: ApiMessageParam[]; json: string; run: object } | null = null;
      for (const operation of operations) {
        if (operation.op === 'append') history = [...history, ...operation.messages.map((make) => make())];
        if (operation.op === 'edit' && history.length > 0) {
          const at = operation.at % history.length;
          history = [...history.slice(0, at), operation.message(), ...history.slice(at + 1)];
          revision += 1;
        }
        if (operation.op === 'truncate') {
          history = history.slice(0, operation.keep % (history.length + 1));
          revision += 1;
        }
        if ((operation.op === 'copy' || operation.op === 'rewrite') && history.length > 0) {
          const at = operation.at % history.length;
          const replacement = operation.op === 'copy' ? structuredClone(history[at]) : { ...operation.message(), uuid: history[at].uuid };
          history = [...history.slice(0, at), replacement, ...history.slice(at + 1)];
          revision += 1;
        }
        if (operation.op === 'other_key') {
          other = [...other, ...history.slice(-2)];
          expect(convert(other, 'compact')).toEqual(toApiMessages(other));
        }
        if (operation.op === 'new_run') {
          run = {};
          revision = 0;
        }
        const result = convert(history, 'main', withRevision ? { run, revision } : undefined);
        expect(result).toEqual(toApiMessages(history));
        markTail(result, marked);
        // A list handed out without a revision, or lent to another run, is never touched by a later call.
        if (lent && (!withRevision || lent.run !== run)) {
          expect(result).not.toBe(lent.list);
          expect(JSON.stringify(lent.list)).toBe(lent.json);
        }
        lent = { list: result, json: JSON.stringify(result), run };
      }
    },
  );

  it('trusts an unchanged revision of the same run: the old history is not compared again, only its ends', () => {
    const base = longHistory(1_000);
    // Breaks the promise on purpose: a message in the middle changed, the ends did not.
    const broken = [...base];
    broken[500] = { type: 'user', uuid: 'changed', message: { role: 'user', content: 'changed' } };
    const run = {};
    const after = (next: { run: object; revision: number }) => {
      const convert = createApiMessageConverter();
      convert(base, 'main', { run, revision: 3 });
      return convert(broken, 'main', next);
    };
    expect(after({ run, revision: 3 })).not.toEqual(toApiMessages(broken));
    // A new revision, or another run with the same number, compares again.
    expect(after({ run, revision: 4 })).toEqual(toApiMessages(broken));
    expect(after({ run: {}, revision: 3 })).toEqual(toApiMessages(broken));
  });

  it('reuses the list it lent to a run in that run\'s next call, and copies it for another run', () => {
    const convert = createApiMessageConverter();
    const history = longHistory(100);
    const first = convert(history, 'main', { run: 'a' as unknown as object, revision: 0 });
    const json = JSON.stringify(first);
    const grown = [...history, { type: 'user', uuid: 'n1', message: { role: 'user', content: 'next' } } as Message];
    const runB = {};
    const second = convert(grown, 'main', { run: runB, revision: 0 });
    expect(second).not.toBe(first);
    expect(JSON.stringify(first)).toBe(json);
    const third = [...grown, { type: 'assistant', uuid: 'n2', message: { id: 'n2', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' } } as Message];
    expect(convert(third, 'main', { run: runB, revision: 0 })).toBe(second);
    expect(second).toEqual(toApiMessages(third));
    // Without a revision every call hands out a copy.
    expect(convert(third, 'main')).not.toBe(second);
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

  it('takes a fresh but equal copy of the first message (a state that went through JSON) for unchanged', () => {
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
