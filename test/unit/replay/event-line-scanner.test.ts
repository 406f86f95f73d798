/**
 * `scanEventLine` reads the recorder's layout of an event line and nothing else, and whatever it accepts
 * `JSON.parse` reads as the same members: the fast path of `replay()` parses only the event's text and relies on
 * both (`test/property/replay-fast-path.test.ts` holds the whole fast path to the slow one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventLineFields, scanEventLine } from '../../../src/replay/event-line-scanner.ts';
import { propertyOptions } from '../../property/settings.ts';

const EVENT = '{"type":"model_done","usage":{"input_tokens":1000,"output_tokens":20},"stopReason":"tool_use"}';
const UNHASHED = `{"kind":"event","index":4,"event":${EVENT},"at":{"v":"runningTools","turn":1,"msgs":1,"seq":8}}`;
const HASHED = `{"kind":"event","index":12,"event":${EVENT},"at":{"v":"contextPipeline.microcompactPending","turn":0,"msgs":30,"seq":914},"hash":"c7b2c26de3f2867c"}`;

function scan(line: string, prefix = '') {
  const text = `${prefix}${line}\nnext line`;
  const fields = eventLineFields();
  return scanEventLine(text, prefix.length, prefix.length + line.length, fields) ? { text, fields } : null;
}

/** The line's members as the scanner read them (the event through `JSON.parse` of its own text). */
function membersOf(text: string, fields: ReturnType<typeof eventLineFields>): unknown {
  const line: Record<string, unknown> = {
    kind: 'event',
    index: fields.index,
    event: JSON.parse(text.slice(fields.eventStart, fields.eventEnd)),
    at: { v: text.slice(fields.valueStart, fields.valueEnd), turn: fields.turn, msgs: fields.msgs, seq: fields.seq },
  };
  if (fields.hashStart >= 0) line.hash = text.slice(fields.hashStart, fields.hashStart + 16);
  return line;
}

describe('scanEventLine', () => {
  it('reads the lines the recorder writes, with and without a hash, anywhere in the text', () => {
    for (const line of [UNHASHED, HASHED]) {
      for (const prefix of ['', '{"kind":"header"}\n', 'x'.repeat(1000)]) {
        const read = scan(line, prefix);
        expect(read).not.toBeNull();
        expect(membersOf(read!.text, read!.fields)).toEqual(JSON.parse(line));
      }
    }
    const { text, fields } = scan(HASHED, 'ab')!;
    expect(text.slice(fields.eventStart, fields.eventEnd)).toBe(EVENT);
    expect(text.slice(fields.valueStart, fields.valueEnd)).toBe('contextPipeline.microcompactPending');
    expect(text.slice(fields.hashStart, fields.hashStart + 16)).toBe('c7b2c26de3f2867c');
    expect(text.slice(2, fields.hashedEnd)).toBe(HASHED.slice(0, HASHED.indexOf(',"hash":"')));
    expect(scan(UNHASHED)!.fields).toMatchObject({ index: 4, turn: 1, msgs: 1, seq: 8, hashStart: -1, hashedEnd: UNHASHED.length });
  });

  it("finds the line's own `at` after an event that holds one of the same spelling", () => {
    const inner = '{"type":"x","at":{"v":"sampling","turn":7,"msgs":7,"seq":7},"hash":"0123456789abcdef"}';
    for (const line of [UNHASHED.replace(EVENT, inner), HASHED.replace(EVENT, inner)]) {
      const { text, fields } = scan(line)!;
      expect(text.slice(fields.eventStart, fields.eventEnd)).toBe(inner);
      expect(membersOf(text, fields)).toEqual(JSON.parse(line));
    }
  });

  it('refuses every other spelling, which the slow path reads or refuses itself', () => {
    const variants = [
      UNHASHED.replace('"index":4', '"index": 4'),
      UNHASHED.replace('"index":4', '"index":04'),
      UNHASHED.replace('"index":4', '"index":0'),
      UNHASHED.replace('"index":4', '"index":4.0'),
      UNHASHED.replace('"index":4', '"index":-4'),
      UNHASHED.replace('"index":4', '"index":1234567890123456'),
      UNHASHED.replace('"kind":"event"', '"kind":"header"'),
      UNHASHED.replace('{"kind":"event","index":4,', '{"index":4,"kind":"event",'),
      UNHASHED.replace('"turn":1', '"turn":01'),
      UNHASHED.replace('"turn":1', '"turn":1e0'),
      UNHASHED.replace('"seq":8', '"seq":-8'),
      UNHASHED.replace('"seq":8', '"seq":8,"extra":1'),
      UNHASHED.replace('"msgs":1', '"msgs":"1"'),
      UNHASHED.replace('"v":"runningTools"', '"v":"running\\u0054ools"'),
      UNHASHED.replace('"v":"runningTools"', '"v":"a\\"b"'),
      UNHASHED.replace('"v":"runningTools"', '"v":null'),
      UNHASHED.replace('"v":"runningTools",', ''),
      `${UNHASHED} `,
      UNHASHED.slice(0, -1),
      UNHASHED.replace(`"event":${EVENT},`, ''),
      UNHASHED.replace(`"event":${EVENT},`, '"event":,'),
      HASHED.replace('c7b2c26de3f2867c', 'C7B2C26DE3F2867C'),
      HASHED.replace('c7b2c26de3f2867c', 'c7b2c26de3f2867'),
      HASHED.replace('c7b2c26de3f2867c', 'c7b2c26de3f2867c0'),
      HASHED.replace('"hash":"c7b2c26de3f2867c"', '"hash":null'),
      HASHED.replace(',"hash":', ', "hash":'),
    ];
    for (const line of variants) expect(scan(line), line).toBeNull();
  });

  it('accepts nothing that JSON.parse reads as other members (random events, digests, hashes and near misses)', () => {
    const digestValue = fc.oneof(fc.string(), fc.constantFrom('sampling', 'exitLadder.stopHooks', 'a"b', 'a\\b', '\u0001', 'é'));
    const count = fc.oneof(fc.nat(), fc.constantFrom(0, 2 ** 53, 1e15, 999_999_999_999_999, -1, 0.5, -0));
    const hash = fc.option(fc.oneof(fc.string({ minLength: 16, maxLength: 16 }), fc.stringMatching(/^[0-9a-f]{16}$/)), { nil: undefined });
    const line = fc.record({ index: count, event: fc.jsonValue(), v: digestValue, turn: count, msgs: count, seq: count, hash }).map((l) => {
      const at = `{"v":${JSON.stringify(l.v)},"turn":${JSON.stringify(l.turn)},"msgs":${JSON.stringify(l.msgs)},"seq":${JSON.stringify(l.seq)}}`;
      const hashMember = l.hash === undefined ? '' : `,"hash":${JSON.stringify(l.hash)}`;
      return `{"kind":"event","index":${JSON.stringify(l.index)},"event":${JSON.stringify(l.event)},"at":${at}${hashMember}}`;
    });
    // Near misses: pieces of the layout put together in any order.
    const pieces = ['{"kind":"event","index":', '1', '0', ',"event":', '{}', '"x"', '[', ']', ',"at":{"v":"', 's', '","turn":', ',"msgs":', ',"seq":', '}', ',"hash":"', '0123456789abcdef', '"', ',', ' '];
    const nearMiss = fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((list) => list.join(''));
    fc.assert(
      fc.property(fc.oneof(line, nearMiss), (text) => {
        const read = scan(text);
        if (!read) return;
        let event: unknown;
        try {
          event = JSON.parse(read.text.slice(read.fields.eventStart, read.fields.eventEnd));
        } catch {
          return; // The fast path gives up on an event that is not JSON.
        }
        expect(event).toEqual((JSON.parse(text) as { event: unknown }).event);
        expect(membersOf(read.text, read.fields)).toEqual(JSON.parse(text));
      }),
      propertyOptions(2000),
    );
    // Every line the recorder could write is accepted.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e15 - 1 }), fc.jsonValue(), fc.stringMatching(/^[a-zA-Z.]*$/), fc.nat(), fc.option(fc.stringMatching(/^[0-9a-f]{16}$/), { nil: undefined }), (index, event, v, n, hash) => {
        const text = `{"kind":"event","index":${index},"event":${JSON.stringify(event)},"at":{"v":"${v}","turn":${n},"msgs":${n},"seq":${n}}${hash === undefined ? '' : `,"hash":"${hash}"`}}`;
        const read = scan(text);
        expect(read).not.toBeNull();
        expect(membersOf(read!.text, read!.fields)).toEqual(JSON.parse(text));
      }),
      propertyOptions(500),
    );
  });
});
