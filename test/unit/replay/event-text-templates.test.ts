/**
 * The template readers of `parseEventText` (src/replay/event-text.ts: `tool-result-text.ts`, `model-message-text.ts`,
 * `reply-text.ts`, `json-string-text.ts`): on the texts the recorder's templates write (`toolResultEventJson`,
 * `modelMessageEventJson` in event-json.ts) they give exactly what `JSON.parse` gives (deep-equal, members in the same
 * order, fresh objects) without `JSON.parse` of the whole text or of the reply, for any strings (quotes,
 * backslashes, newlines, control characters, non-ASCII, lone surrogates); on every other spelling (random edits of
 * those texts) they agree with `JSON.parse`, value or error.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoopEvent } from '../../../src/data/events.ts';
import { modelMessageEventJson, toolResultEventJson } from '../../../src/replay/event-json.ts';
import { parseEventText } from '../../../src/replay/event-text.ts';
import { isLatin1Text } from '../../../src/replay/json-string-text.ts';
import { isLoopEvent } from '../../../src/data/event-check.ts';
import type { EventRead } from '../../../src/replay/template-scan.ts';
import { propertyOptions } from '../../property/settings.ts';
import { outcome, type Outcome } from '../../helpers/json-outcome.ts';

/** `text` with each edit applied in turn: at a position (modulo the length), `remove` characters replaced by `char`. */
function withEdits(text: string, edits: ReadonlyArray<{ at: number; char: string; remove: number }>): string {
  let edited = text;
  for (const { at, char, remove } of edits) {
    const i = at % (edited.length + 1);
    edited = edited.slice(0, i) + char + edited.slice(i + remove);
  }
  return edited;
}

/** `parseEventText` of `text` inside a larger text (as a log line holds it), and every argument `JSON.parse` got. */
function readWithParses(text: string, prefix = '{"kind":"event","index":1,"event":', suffix = ',"at":{}}\n'): { outcome: Outcome; parsed: string[] } {
  const whole = `${prefix}${text}${suffix}`;
  const spy = vi.spyOn(JSON, 'parse');
  try {
    const result = outcome(() => parseEventText(whole, prefix.length, prefix.length + text.length));
    return { outcome: result, parsed: spy.mock.calls.map((call) => String(call[0])) };
  } finally {
    spy.mockRestore();
  }
}

function expectAsJsonParse(text: string, prefix?: string, suffix?: string): string[] {
  const { outcome: read, parsed } = readWithParses(text, prefix, suffix);
  expect(read, text).toEqual(outcome(() => JSON.parse(text)));
  return parsed;
}

afterEach(() => vi.restoreAllMocks());

/** Strings as tools and models write them: quotes, backslashes, newlines, control characters, Latin-1 text. */
const latin1String = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', 'é', '/', 'a', ' ', '{', '}', ','), maxLength: 30 }),
  fc.constantFrom('', 'call_1', 'toolu_01ABCDEFGHIJKLMNOPQRSTUV', '105bd27c-6564-434d-8953-df91357ae013', 'ping 1', 'line one\nline "two"\t\\ ï'),
);
/** Any string (any code unit, lone surrogates included): mostly Latin-1, which the readers take. */
const anyString = fc.oneof({ weight: 4, arbitrary: latin1String }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) }, { weight: 1, arbitrary: fc.constantFrom('✓ done', '\ud83d', '\ude00x', 'a — b') });
/** Identifiers: what the reply template reads as plain strings, and some that are not plain. */
const plainId = fc.stringMatching(/^[A-Za-z0-9_:.-]{0,30}$/);
const latin1Id = fc.oneof(plainId, latin1String);
const idString = fc.oneof(plainId, anyString);

function toolResultEvent(id: string, uuid: string, blockId: string, content: string, source: string, isError: boolean): LoopEvent {
  const block = isError ? { type: 'tool_result', tool_use_id: blockId, content, is_error: true } : { type: 'tool_result', tool_use_id: blockId, content };
  return { type: 'tool_result', toolUseId: id, message: { type: 'user', uuid, message: { role: 'user', content: [block] }, sourceToolUseId: source } } as unknown as LoopEvent;
}

/** A tool result's event text as the recorder's template writes it, its strings from `text` and `id`. */
const toolResultTextWith = (text: fc.Arbitrary<string>, id: fc.Arbitrary<string>) => fc
  .record({ id, uuid: text, otherId: fc.option(id), content: text, otherSource: fc.option(id), isError: fc.boolean() })
  .map(({ id, uuid, otherId, content, otherSource, isError }) => {
    const json = toolResultEventJson(toolResultEvent(id, uuid, otherId ?? id, content, otherSource ?? id, isError));
    if (json === null) throw new Error('the recorder refused its own shape');
    return json[0];
  });

/** Mostly Latin-1 texts (which the readers take), some with any code unit (parsed whole). */
const toolResultText = fc.oneof({ weight: 3, arbitrary: toolResultTextWith(latin1String, latin1Id) }, { weight: 1, arbitrary: toolResultTextWith(anyString, idString) });

const usage = fc.oneof(
  fc.constant(undefined),
  fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat() }),
  fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat(), cache_creation_input_tokens: fc.nat(), cache_read_input_tokens: fc.nat() }),
  fc.record({ input_tokens: fc.double({ noNaN: true, noDefaultInfinity: true }), output_tokens: fc.integer() }),
);
const blockWith = (text: fc.Arbitrary<string>, id: fc.Arbitrary<string>) => fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('tool_use'), id, name: id, input: fc.jsonValue() }),
  fc.record({ type: fc.constant('thinking'), thinking: text, signature: text }),
);
/**
 * A model reply's event text as the recorder's template writes it; `timestamp` what the interpreter's clock gives,
 * `flagKey` the flags' keys (tool-use ids: a key with an escape is left to the parser).
 */
const modelMessageTextWith = (timestamp: fc.Arbitrary<number>, flagKey: fc.Arbitrary<string>, text: fc.Arbitrary<string>, id: fc.Arbitrary<string>) => fc
  .record({
    uuid: text,
    id,
    model: id,
    blocks: fc.oneof({ weight: 4, arbitrary: fc.array(blockWith(text, id), { minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.array(blockWith(text, id), { maxLength: 3 }) }),
    stopReason: fc.oneof(fc.constant(null), id),
    usage,
    timestamp: fc.option(timestamp),
    flags: fc.option(fc.dictionary(flagKey, fc.boolean(), { maxKeys: 3 })),
  })
  .map(({ uuid, id, model, blocks, stopReason, usage: u, timestamp, flags }) => {
    const reply: Record<string, unknown> = { id, role: 'assistant', model, content: blocks, stop_reason: stopReason };
    if (u !== undefined) reply.usage = u;
    const message: Record<string, unknown> = { type: 'assistant', uuid, message: reply };
    if (timestamp !== null) message.timestamp = timestamp;
    const event: Record<string, unknown> = { type: 'model_message', message };
    if (flags !== null) event.concurrencySafe = flags;
    const json = modelMessageEventJson(event as unknown as LoopEvent);
    if (json === null) throw new Error('the recorder refused its own shape');
    return json[0];
  });
/** Clock readings: whole milliseconds (the template reader takes up to 15 digits). */
const clock = fc.oneof(fc.nat(), fc.constant(1796521594997), fc.integer({ min: 0, max: 999_999_999_999_999 }));
const modelMessageText = fc.oneof({ weight: 3, arbitrary: modelMessageTextWith(clock, plainId, latin1String, latin1Id) }, { weight: 1, arbitrary: modelMessageTextWith(clock, plainId, anyString, idString) });
/** Any number the template writes (fractions, exponents, negatives, more digits: read by the parser). */
const modelMessageTextAnyTime = modelMessageTextWith(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1e21)), idString, anyString, idString);

describe('parseEventText: the recorder template of a tool result', () => {
  it('reads the texts the template writes as JSON.parse does, never parsing the whole of a Latin-1 text', () => {
    fc.assert(
      fc.property(toolResultText, (text) => {
        const parsed = expectAsJsonParse(text);
        // A text with a character past U+00FF is parsed whole (json-string-text.ts says why).
        if (!isLatin1Text(text)) return void expect(parsed).toEqual([text]);
        expect(parsed).not.toContain(text);
        // Only strings are parsed (each its own quoted slice): escaped ones, and long ones (copied, see json-string-text.ts).
        for (const argument of parsed) expect(argument.startsWith('"') && argument.endsWith('"'), argument).toBe(true);
      }),
      propertyOptions(600),
    );
  });

  it('builds a plain text with short strings without JSON.parse at all, and a fresh object per call', () => {
    const text = toolResultEventJson(toolResultEvent('call_1', 'u-1', 'call_1', 'ping 1', 'call_1', false))![0];
    expect(expectAsJsonParse(text)).toEqual([]);
    const error = toolResultEventJson(toolResultEvent('call_1', 'u-1', 'call_2', 'no "such" file\n', 'call_3', true))![0];
    expect(expectAsJsonParse(error)).toEqual([JSON.stringify('no "such" file\n')]);
    const first = parseEventText(text, 0, text.length) as { message: { message: { content: unknown[] } } };
    const second = parseEventText(text, 0, text.length) as typeof first;
    expect(second.message).not.toBe(first.message);
    expect(second.message.message.content).not.toBe(first.message.message.content);
    expect(second.message.message.content[0]).not.toBe(first.message.message.content[0]);
  });

  it('agrees with JSON.parse on every other spelling: random edits of template texts', () => {
    const CHARS = ['"', '\\', '}', '{', ']', '[', ',', ' ', ':', 'u', 'n', 'e', '0', '\n', '\u0001', 'é'];
    fc.assert(
      fc.property(toolResultText, fc.array(fc.record({ at: fc.nat(), char: fc.constantFrom(...CHARS, ''), remove: fc.nat({ max: 3 }) }), { minLength: 1, maxLength: 3 }), (text, edits) => {
        expectAsJsonParse(withEdits(text, edits));
      }),
      propertyOptions(1500),
    );
  });

  it('falls back for other member orders, members and values', () => {
    const text = toolResultEventJson(toolResultEvent('call_1', 'u-1', 'call_1', 'a\nb', 'call_1', false))![0];
    for (const variant of [
      text.replace('"content":"a\\nb"', '"content":"a\\nb","is_error":false'),
      text.replace('"content":"a\\nb"', '"content":"a\\nb","x":"y"'),
      text.replace('"content":"a\\nb"', '"content":[{"type":"text","text":"a"}]'),
      text.replace('"content":"a\\nb"', '"content":"a\\qb"'),
      text.replace('"content":"a\\nb"', '"content":"a\nb"'),
      text.replace('"content":"a\\nb"', '"content":"a","content":"b"'),
      text.replace('"toolUseId":"call_1"', '"toolUseId":1'),
      text.replace('"sourceToolUseId":"call_1"', '"sourceToolUseId":"call_\\"1"'),
      text.replace('"sourceToolUseId":"call_1"', '"sourceToolUseId":"call_\\u0031"'),
      text.replace('"uuid":"u-1"', '"uuid": "u-1"'),
      text.replace('}}', '},"extra":1}'),
      text.replace('{"type":"tool_result","toolUseId"', '{"toolUseId"'),
      `${text.slice(0, -1)} }`,
    ]) {
      expect(variant).not.toBe(text);
      expectAsJsonParse(variant);
    }
  });
});

describe('parseEventText: the recorder template of a model reply', () => {
  it('reads the texts the template writes as JSON.parse does, never parsing the whole of a Latin-1 text', () => {
    fc.assert(
      fc.property(modelMessageText, (text) => {
        const parsed = expectAsJsonParse(text);
        if (!isLatin1Text(text)) return void expect(parsed).toEqual([text]);
        expect(parsed).not.toContain(text);
      }),
      propertyOptions(600),
    );
  });

  it("reads the stream adapter's replies (one text or tool-use block) without JSON.parse of the reply", () => {
    const reply = { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'tool_use', id: 'call_1', name: 'echo', input: { text: 'ping 1' } }], stop_reason: 'tool_use', usage: { input_tokens: 1000, output_tokens: 20 } };
    const event = { type: 'model_message', message: { type: 'assistant', uuid: 'msg_1:0', message: reply, timestamp: 1796521594997 }, concurrencySafe: { call_1: true } };
    const text = modelMessageEventJson(event as unknown as LoopEvent)![0];
    // The tool's input, the flags and the model's name (a long string, copied) alone.
    expect(expectAsJsonParse(text)).toEqual(['{"text":"ping 1"}', '"claude-sonnet-4-6"', '{"call_1":true}']);
    const textReply = { ...reply, content: [{ type: 'text', text: 'Done: "ok".\n' }], stop_reason: null, model: 'm' };
    const plain = modelMessageEventJson({ type: 'model_message', message: { type: 'assistant', uuid: 'u', message: textReply } } as unknown as LoopEvent)![0];
    expect(expectAsJsonParse(plain)).toEqual([JSON.stringify('Done: "ok".\n')]);
  });

  it('agrees with JSON.parse on every other spelling: random edits of template texts', () => {
    const CHARS = ['"', '\\', '}', '{', ']', '[', ',', ' ', ':', 'e', 'l', '0', '1', '\n', 'é'];
    fc.assert(
      fc.property(fc.oneof(modelMessageText, modelMessageTextAnyTime), fc.array(fc.record({ at: fc.nat(), char: fc.constantFrom(...CHARS, ''), remove: fc.nat({ max: 3 }) }), { minLength: 1, maxLength: 3 }), (text, edits) => {
        expectAsJsonParse(withEdits(text, edits));
      }),
      propertyOptions(1500),
    );
  });

  it('falls back for other members, orders and values', () => {
    const reply = { id: 'msg_1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2 } };
    const text = modelMessageEventJson({ type: 'model_message', message: { type: 'assistant', uuid: 'u', message: reply, timestamp: 5 }, concurrencySafe: { a: true, b: false } } as unknown as LoopEvent)![0];
    for (const variant of [
      text.replace('"timestamp":5', '"timestamp":05'),
      text.replace('"timestamp":5', '"timestamp":-5'),
      text.replace('"timestamp":5', '"timestamp":5.5'),
      text.replace('"timestamp":5', '"timestamp":1234567890123456'),
      text.replace('"timestamp":5', '"timestamp":"5"'),
      text.replace('{"a":true,"b":false}', '{"a":true,"a":false}'),
      text.replace('{"a":true,"b":false}', '{"__proto__":true}'),
      text.replace('{"a":true,"b":false}', '{"a\\"":true}'),
      text.replace('{"a":true,"b":false}', '{"a":tru}'),
      text.replace('{"a":true,"b":false}', '{"a":1}'),
      text.replace('{"a":true,"b":false}', '{}'),
      text.replace('"text":"hi"', '"text":"hi","citations":"x"'),
      text.replace('"text":"hi"', '"text":"hi","citations":[]'),
      text.replace('"usage":{"input_tokens":1,"output_tokens":2}', '"usage":{"input_tokens":1,"output_tokens":2,"x":{"y":1}}'),
      text.replace('"usage":{"input_tokens":1,"output_tokens":2}', '"usage":{"output_tokens":2,"input_tokens":1}'),
      text.replace('"usage":{"input_tokens":1,"output_tokens":2}', '"usage":{"input_tokens":1,"input_tokens":2}'),
      text.replace('"stop_reason":"end_turn"', '"stop_reason":nul'),
      text.replace('"stop_reason":"end_turn"', '"stop_reason":"end\\"turn"'),
      text.replace('"stop_reason":"end_turn"', '"stop_reason":"a","stop_sequence":null'),
      text.replace('"role":"assistant"', '"role":"user"'),
      text.replace('"id":"msg_1"', '"id":"msg\\u005f1"'),
      text.replace(',"concurrencySafe":{"a":true,"b":false}', ''),
      text.replace(',"timestamp":5', ''),
      text.replace('[{"type":"text","text":"hi"}]', '[]'),
      text.replace('[{"type":"text","text":"hi"}]', '[{"type":"text","text":"hi"},{"type":"text","text":"x"}]'),
    ]) {
      expect(variant).not.toBe(text);
      expectAsJsonParse(variant);
    }
  });
});

describe('parseEventText: a text that is not Latin-1', () => {
  it('is parsed whole, and the names it cuts out of common texts are parsed (one-byte strings, as JSON.parse gives)', () => {
    const wide = '{"type":"tool_result","toolUseId":"a","message":{"type":"user","uuid":"u","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"✓"}]},"sourceToolUseId":"a"}}';
    expect(expectAsJsonParse(wide)).toEqual([wide]);
    expect(expectAsJsonParse(wide.replace('✓', 'é'))).toEqual([]);
    // A model_done or a layer in a log whose text holds a wide character elsewhere (after the event here).
    const done = '{"type":"model_done","usage":{"input_tokens":1,"output_tokens":2},"stopReason":"tool_use"}';
    expect(expectAsJsonParse(done, 'x', '\n✓')).toEqual(['"tool_use"']);
    expect(expectAsJsonParse(done, 'x', '\né')).toEqual([]);
    const layer = '{"type":"context_layer_result","layer":"microcompact","edits":[],"tokensFreed":0}';
    expect(expectAsJsonParse(layer, 'x', '\n✓')).toEqual(['"microcompact"']);
  });
});

/** `parseEventText` of `text` with its `EventRead`, or null when it throws. */
function readChecked(text: string): { event: unknown; checked: boolean } | null {
  const read: EventRead = { checked: false };
  try {
    const event = parseEventText(text, 0, text.length, isLatin1Text(text), read);
    return { event, checked: read.checked };
  } catch {
    return null;
  }
}

describe('parseEventText: what it says it built whole (EventRead)', () => {
  it('says so only of events the schema accepts: template texts, and random edits of them', () => {
    const CHARS = ['"', '\\', '}', '{', ']', '[', ',', ' ', ':', 'e', 'l', '0', '1', '-', '.', '\n', 'é', '✓'];
    fc.assert(
      fc.property(fc.oneof(toolResultText, modelMessageText, modelMessageTextAnyTime), fc.array(fc.record({ at: fc.nat(), char: fc.constantFrom(...CHARS, ''), remove: fc.nat({ max: 3 }) }), { maxLength: 3 }), (text, edits) => {
        const read = readChecked(withEdits(text, edits));
        if (read?.checked) expect(isLoopEvent(read.event)).toBe(true);
      }),
      propertyOptions(3000),
    );
  });

  it('says so of the common texts, and not of what it parsed whole or does not check', () => {
    const reply = { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'tool_use', id: 'call_1', name: 'echo', input: { text: 'ping 1' } }], stop_reason: 'tool_use', usage: { input_tokens: 1000, output_tokens: 20 } };
    const event = { type: 'model_message', message: { type: 'assistant', uuid: 'msg_1:0', message: reply, timestamp: 1796521594997 }, concurrencySafe: { call_1: true, call_2: false } };
    const text = modelMessageEventJson(event as unknown as LoopEvent)![0];
    const tool = toolResultEventJson(toolResultEvent('call_1', 'u-1', 'call_1', 'a "b"\n', 'call_1', true))![0];
    for (const whole of [
      text,
      text.replace(',"concurrencySafe":{"call_1":true,"call_2":false}', ''),
      text.replace('{"call_1":true,"call_2":false}', '{}'),
      text.replace('{"call_1":true,"call_2":false}', '{"a":true,"a":false}'),
      text.replace('{"call_1":true,"call_2":false}', '{"__proto__":true,"b":false}'),
      tool,
      '{"type":"tools_finished"}',
      '{"type":"attachments_collected","attachments":[]}',
      '{"type":"model_done","usage":{"input_tokens":1,"output_tokens":2},"stopReason":"tool_use"}',
    ]) expect(readChecked(whole), whole).toEqual({ event: JSON.parse(whole), checked: true });
    for (const parsed of [
      text.replace('"output_tokens":20}', '"output_tokens":20,"cache_read_input_tokens":5}'),
      text.replace('"output_tokens":20}', '"output_tokens":-20}'),
      text.replace('"stop_reason":"tool_use"', '"stop_reason":"tool_use","stop_sequence":null'),
      text.replace('ping 1', 'ping ✓'),
      tool.replace('"content":"a', '"content":"✓a'),
      '{"type":"context_layer_result","layer":"microcompact","edits":[],"tokensFreed":0}',
      '{"type":"context_layer_result","layer":"nonesuch","edits":[],"tokensFreed":0}',
      '{"type":"model_stream_fallback"}',
    ]) expect(readChecked(parsed), parsed).toEqual({ event: JSON.parse(parsed), checked: false });
  });

  it('reads the flags as JSON.parse does: member order, a repeated key, true and false, and refuses other values', () => {
    const base = modelMessageEventJson({ type: 'model_message', message: { type: 'assistant', uuid: 'u', message: { id: 'm', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'hi' }], stop_reason: null } }, concurrencySafe: { a: true } } as unknown as LoopEvent)![0];
    for (const flags of ['{"b":false,"a":true}', '{"2":true,"1":false,"x":true}', '{"a":true,"a":false,"b":true}', '{"toolu_01ABCDEFGHIJKLMNOPQRSTUV":true}', '{"a":txue}', '{"a":fals}', '{"a":true,}', '{"a":true "b":false}', '{"a":truee}']) {
      const text = base.replace('{"a":true}', flags);
      expect(outcome(() => parseEventText(text, 0, text.length)), flags).toEqual(outcome(() => JSON.parse(text)));
    }
    const ordered = base.replace('{"a":true}', '{"b":false,"2":true,"a":true,"b":true}');
    expect(Object.keys((parseEventText(ordered, 0, ordered.length) as { concurrencySafe: object }).concurrencySafe)).toEqual(Object.keys(JSON.parse(ordered).concurrencySafe));
  });
});
