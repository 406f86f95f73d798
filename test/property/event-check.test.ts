/**
 * The hand-written event check (`isLoopEvent`) answers exactly as the zod schema it replaces on replay's hot path
 * (`loopEventSchema.safeParse(data).success`), on JSON data: valid events of every type with every optional field,
 * the same events mutated at one random place (a value replaced by another JSON value, a key removed or added),
 * and arbitrary JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopEvent } from '../../src/data/event-check.ts';
import { loopEventSchema } from '../../src/data/event-schema.ts';
import { ALL_EVENT_SAMPLES } from './arbitraries/events.ts';
import { propertyOptions } from './settings.ts';

const usage = { input_tokens: 10, output_tokens: 2, cache_creation_input_tokens: null, cache_read_input_tokens: 3 };
const userMessage = {
  type: 'user',
  uuid: 'u1',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
  isMeta: false,
  sourceToolUseId: 't1',
};
const assistantMessage = {
  type: 'assistant',
  uuid: 'a1',
  message: { id: 'msg', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage },
  apiError: { kind: 'prompt_too_long', text: 'too long', status: 400, errorType: 'invalid_request_error' },
  timestamp: 1,
};
const everyMessage = [
  userMessage,
  { ...userMessage, message: { role: 'user', content: 'plain text' } },
  assistantMessage,
  { type: 'system', uuid: 's1', subtype: 'compact_boundary', content: 'compacted' },
  { type: 'attachment', uuid: 'at1', attachment: { type: 'file', path: 'a.ts' } },
  { type: 'tombstone', uuid: 'x1', targetUuid: 'a1' },
  { type: 'tool_use_summary', uuid: 'ts1', summary: 'read a file', precedingToolUseIds: ['t1'] },
];
const edits = (messages: unknown[]) => [
  { op: 'replace_tool_result', toolUseId: 't1', content: 'cleared' },
  { op: 'remove', uuids: ['u1'] },
  { op: 'replace_range', fromUuid: 'u1', toUuid: 'a1', replacement: messages },
];
const everyEdit = edits(everyMessage);

/** Every event type with every optional field present (so a mutation can reach each field). */
function richEvents(messages: unknown[], edits: unknown[]): unknown[] {
  return [
    { type: 'model_message', message: assistantMessage, concurrencySafe: { t1: true, t2: false } },
    { type: 'model_done', usage, stopReason: null },
    { type: 'model_done', stopReason: 'end_turn' },
    { type: 'model_overloaded', message: 'Overloaded' },
    { type: 'model_stream_fallback' },
    { type: 'model_error', error: { kind: 'image', message: 'bad image', status: 400, type: 'invalid_request_error' } },
    { type: 'abort', reason: 'interrupt' },
    { type: 'context_layer_result', layer: 'context_collapse', edits, tokensFreed: 12.5, emitted: messages },
    { type: 'autocompact_result', ok: true, postCompactMessages: messages, preCompactTokens: 9, postCompactTokens: 1, error: 'e' },
    { type: 'reactive_compact_result', ok: false, postCompactMessages: messages, preCompactTokens: 9, error: 'e' },
    { type: 'collapse_drain_result', committed: 3, edits },
    { type: 'tool_result', toolUseId: 't1', message: userMessage, extra: messages, preventContinuation: true, contextPatch: { cwd: '/x', n: [1] } },
    { type: 'tools_finished' },
    { type: 'stop_hooks_result', blockingErrors: ['no'], preventContinuation: false, stopReason: 'why', hookCount: 2 },
    { type: 'attachments_collected', attachments: messages },
    { type: 'tool_use_summary_ready', summaryId: 's', summary: 'done' },
  ];
}
const RICH_EVENTS: unknown[] = [...richEvents(everyMessage, everyEdit), ...ALL_EVENT_SAMPLES];

/**
 * The events the exhaustive sweep mutates: every event field once, every message and edit field once (each message
 * and edit alone in a small event), instead of again in every event that can carry it.
 */
const SWEPT_EVENTS: unknown[] = [
  ...richEvents([{ type: 'tombstone', uuid: 'x1', targetUuid: 'a1' }], [{ op: 'remove', uuids: ['u1'] }]),
  ...everyMessage.map((message) => ({ type: 'attachments_collected', attachments: [message] })),
  ...edits([{ type: 'tombstone', uuid: 'x1', targetUuid: 'a1' }]).map((edit) => ({ type: 'collapse_drain_result', committed: 1, edits: [edit] })),
];

/** Values a mutation writes: every JSON type, the edge numbers of the schema's rules, its literal words; then whole messages and edits. */
const SCALAR_REPLACEMENTS: unknown[] = [
  null, true, false, 0, -0, 1, -1, 0.5, -0.5, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e308, JSON.parse('1e400'), JSON.parse('-1e400'), '', 'x', [], [1], ['x'], {}, { type: 'x' },
  'user', 'assistant', 'system', 'attachment', 'tombstone', 'tool_use_summary', 'image', 'other', 'snip', 'microcompact',
  'tool_result_budget', 'context_collapse', 'prompt_too_long', 'max_output_tokens', 'media_size', 'invalid_request',
  'remove', 'replace_range', 'replace_tool_result', 'model_done', 'tools_finished', 'abort',
];
const REPLACEMENTS: unknown[] = [...SCALAR_REPLACEMENTS, ...everyMessage, ...everyEdit];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place in a JSON tree: the path of keys and indexes leading to it. */
function placesOf(value: Json, path: Array<string | number> = [], into: Array<Array<string | number>> = []): Array<Array<string | number>> {
  into.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => placesOf(item, [...path, i], into));
  else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) placesOf(value[key], [...path, key], into);
  return into;
}

type Mutation = { kind: 'replace'; value: unknown } | { kind: 'delete' } | { kind: 'add'; key: string; value: unknown };

/** A copy of `event` changed at `path` (the root itself can only be replaced). */
function mutated(event: unknown, path: Array<string | number>, mutation: Mutation): unknown {
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : event;
  const copy = structuredClone(event) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  const target = parent[last];
  if (mutation.kind === 'replace') parent[last] = structuredClone(mutation.value);
  else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
    (target as Record<string, unknown>)[mutation.key] = structuredClone(mutation.value);
  } else if (Array.isArray(target)) target.push(structuredClone(mutation.value));
  return copy;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), value: fc.constantFrom(...REPLACEMENTS) }),
  fc.constant({ kind: 'delete' as const }),
  fc.record({
    kind: fc.constant('add' as const),
    key: fc.constantFrom('type', 'extra', 'uuid', 'usage', 'stop_reason', 'constructor', 'toString'),
    value: fc.constantFrom(...REPLACEMENTS),
  }),
);

/** An event mutated at 1-3 random places. */
const mutatedEventArb = fc
  .tuple(fc.constantFrom(...RICH_EVENTS), fc.array(fc.tuple(fc.nat(), mutationArb), { minLength: 1, maxLength: 3 }))
  .map(([event, mutations]) => {
    let current = event;
    for (const [pick, mutation] of mutations) {
      const places = placesOf(current as Json);
      current = mutated(current, places[pick % places.length], mutation);
    }
    return current;
  });

function zodAccepts(data: unknown): boolean {
  return loopEventSchema.safeParse(data).success;
}

describe('isLoopEvent answers as loopEventSchema', () => {
  it('accepts every valid event of every type, with and without its optional fields', () => {
    for (const event of RICH_EVENTS) {
      expect(zodAccepts(event), JSON.stringify(event)).toBe(true);
      expect(isLoopEvent(event), JSON.stringify(event)).toBe(true);
    }
  });

  it('gives the same verdict on every single mutation of every event (each place: each small value, removed)', () => {
    let checked = 0;
    let rejected = 0;
    for (const event of SWEPT_EVENTS) {
      for (const path of placesOf(event as Json)) {
        for (const mutation of [{ kind: 'delete' as const }, ...SCALAR_REPLACEMENTS.map((value) => ({ kind: 'replace' as const, value }))]) {
          const data = mutated(event, path, mutation);
          const expected = zodAccepts(data);
          if (!expected) rejected += 1;
          checked += 1;
          if (isLoopEvent(data) !== expected) expect.fail(`${JSON.stringify(data)}: zod says ${expected}`);
        }
      }
    }
    expect(rejected).toBeGreaterThan(checked / 2);
  });

  it('gives the same verdict on events mutated at random places', () => {
    let rejected = 0;
    fc.assert(
      fc.property(mutatedEventArb, (data) => {
        const expected = zodAccepts(data);
        if (!expected) rejected += 1;
        expect(isLoopEvent(data), JSON.stringify(data)).toBe(expected);
      }),
      propertyOptions(3_000),
    );
    // The mutations must reach both verdicts, or the property proves little.
    expect(rejected).toBeGreaterThan(0);
  });

  it('gives the same verdict after a round trip through JSON text (what a log holds), __proto__ keys included', () => {
    fc.assert(
      fc.property(mutatedEventArb, fc.boolean(), (data, withProto) => {
        let text = JSON.stringify(data);
        if (withProto && text.startsWith('{') && text.length > 2) text = `{"__proto__":{"type":"x"},${text.slice(1)}`;
        const parsed: unknown = JSON.parse(text);
        expect(isLoopEvent(parsed), text).toBe(zodAccepts(parsed));
      }),
      propertyOptions(1_000),
    );
    const protoRecord = JSON.parse('{"type":"model_message","message":' + JSON.stringify(assistantMessage) + ',"concurrencySafe":{"__proto__":1,"t1":true}}');
    expect(isLoopEvent(protoRecord)).toBe(zodAccepts(protoRecord));
  });

  it('gives the same verdict on arbitrary JSON and on objects with any event type', () => {
    const types = [...new Set(RICH_EVENTS.map((event) => (event as { type: string }).type)), 'unknown'];
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ type: fc.constantFrom(...types) }).chain((base) =>
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }).map((rest) => ({ ...rest, ...base })))), (data) => {
        expect(isLoopEvent(data), JSON.stringify(data)).toBe(zodAccepts(data));
      }),
      propertyOptions(1_000),
    );
  });
});
