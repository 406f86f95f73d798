/**
 * The recorder writes a tool's result and the model's reply from templates (`event-json.ts`: `toolResultEventJson`,
 * `modelMessageEventJson`) and checks only their strings for secrets: each text must be exactly `JSON.stringify`
 * of the event, any other shape must go the usual way, and checking the strings alone must find every secret that
 * checking the whole text finds.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../../src/data/events.ts';
import { loggedEventJsons, modelMessageEventJson, toolResultEventJson } from '../../../src/replay/event-json.ts';
import { createRedactor } from '../../../src/replay/redact.ts';
import { replay } from '../../../src/replay/replay.ts';
import { recordRun, toolTurns } from './fixtures.ts';

/** Strings JSON writes as they are and strings it escapes (quote, backslash, controls, lone and paired surrogates). */
const AWKWARD = ['', 'ping 1', 'say "hi"', 'C:\\dir', 'a\nb\tc', '\u0000\u001f', '\ud800', 'x\udc00y', '😀 é ü', '\u2028\u2029', '</script>'];

function toolResult(id: string, uuid: string, content: unknown, isError = false): LoopEvent {
  const block = isError ? { type: 'tool_result', tool_use_id: id, content, is_error: true } : { type: 'tool_result', tool_use_id: id, content };
  return { type: 'tool_result', toolUseId: id, message: { type: 'user', uuid, message: { role: 'user', content: [block] }, sourceToolUseId: id } } as LoopEvent;
}

function modelMessage(uuid: string, reply: unknown, timestamp?: unknown, flags?: unknown): LoopEvent {
  const message: Record<string, unknown> = { type: 'assistant', uuid, message: reply };
  if (timestamp !== undefined) message.timestamp = timestamp;
  const event: Record<string, unknown> = { type: 'model_message', message };
  if (flags !== undefined) event.concurrencySafe = flags;
  return event as LoopEvent;
}

const REPLY = {
  id: 'msg_1',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a "b".txt' } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 3 },
};

function coveredEvents(): LoopEvent[] {
  const events: LoopEvent[] = [];
  for (const text of AWKWARD) {
    events.push(toolResult(`toolu_${text}`, `uuid-${text}`, text), toolResult('toolu_1', 'u', text, true));
    const flags = Object.create(null) as Record<string, boolean>;
    flags[`toolu_${text}`] = true;
    flags['2'] = false;
    flags['1'] = true;
    events.push(modelMessage(`msg_1:${text}`, { ...REPLY, content: [{ type: 'text', text }] }, 1_796_439_098_875, flags));
  }
  events.push(modelMessage('m', REPLY), modelMessage('m', REPLY, 0), modelMessage('m', REPLY, -1.5), modelMessage('m', REPLY, undefined, {}));
  events.push(modelMessage('m', REPLY, 1, { a: true, b: false }));
  return events;
}

const textOf = (event: LoopEvent) => toolResultEventJson(event) ?? modelMessageEventJson(event);

describe('the tool result and model reply templates', () => {
  it('write exactly JSON.stringify for every shape they cover', () => {
    const events = coveredEvents();
    for (const event of events) expect(textOf(event)?.[0], JSON.stringify(event)).toBe(JSON.stringify(event));
    expect(events.every((event) => textOf(event) !== null)).toBe(true);
  });

  it('write the reply\'s flags of any JSON shape as JSON.stringify writes them, and check them whole', () => {
    // The flags are written by JSON.stringify (no member walk), so shapes the interpreter never makes are written too.
    const inheritedFlag = Object.create({ toolu_9: true }) as Record<string, boolean>;
    inheritedFlag.toolu_1 = true;
    const flagsOf = [{ toolu_1: 'yes' }, inheritedFlag, [true], { toolu_1: { nested: 'sk-ant-api03-abc' } }] as unknown[];
    for (const flags of flagsOf) {
      const event = modelMessage('m', REPLY, 1, flags);
      const text = textOf(event);
      expect(text?.[0], JSON.stringify(event)).toBe(JSON.stringify(event));
      expect(text?.[1]).toContain(JSON.stringify(flags));
    }
  });

  it('give up (null) on any other shape', () => {
    const withToJson = { ...REPLY, toJSON: () => ({ other: true }) };
    const others: LoopEvent[] = [
      toolResult('t', 'u', [{ type: 'text', text: 'blocks' }]),
      toolResult('t', 'u', 7),
      { ...toolResult('t', 'u', 'x'), extra: [] } as LoopEvent,
      { ...toolResult('t', 'u', 'x'), preventContinuation: true } as LoopEvent,
      { toolUseId: 't', type: 'tool_result', message: (toolResult('t', 'u', 'x') as { message: unknown }).message } as LoopEvent,
      { type: 'tool_result', toolUseId: 't', message: { type: 'user', uuid: 'u', message: { role: 'user', content: [] }, sourceToolUseId: 't' } } as LoopEvent,
      { type: 'tool_result', toolUseId: 't', message: { type: 'user', uuid: 'u', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x', is_error: false }] }, sourceToolUseId: 't' } } as LoopEvent,
      { type: 'tool_result', toolUseId: 't', message: { type: 'user', uuid: 'u', message: { role: 'user', content: [{ type: 'text', tool_use_id: 't', content: 'x' }] }, sourceToolUseId: 't' } } as unknown as LoopEvent,
      { type: 'tool_result', toolUseId: 't', message: { type: 'user', uuid: 'u', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] } } } as LoopEvent,
      modelMessage('m', withToJson, 1),
      modelMessage('m', REPLY, Number.NaN),
      modelMessage('m', REPLY, '1'),
      modelMessage('m', REPLY, 1, null),
      modelMessage(7 as unknown as string, REPLY, 1),
      { type: 'model_message', message: { type: 'assistant', uuid: 'm', message: REPLY, apiError: { status: 500 } } } as unknown as LoopEvent,
      { type: 'model_message', message: { uuid: 'm', type: 'assistant', message: REPLY } } as unknown as LoopEvent,
      { type: 'model_message', message: { type: 'assistant', uuid: 'm', message: REPLY }, concurrencySafe: undefined } as unknown as LoopEvent,
    ];
    for (const event of others) expect(textOf(event), JSON.stringify(event)).toBeNull();
  });

  it('write JSON.stringify or nothing for generated events of both types', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom(...AWKWARD), fc.string({ unit: 'binary' }));
    const value = fc.oneof(text, fc.jsonValue(), fc.constantFrom<unknown>(undefined, Number.NaN, true, null));
    const result = fc.record({ id: text, uuid: text, content: value, isError: fc.boolean() });
    const reply = fc.oneof(fc.constant<unknown>(REPLY), fc.jsonValue(), fc.object());
    const flags = fc.oneof(fc.constant<unknown>(undefined), fc.dictionary(text, fc.oneof(fc.boolean(), fc.constant<unknown>(1))));
    const message = fc.record({ uuid: text, reply, timestamp: fc.oneof(fc.constant<unknown>(undefined), fc.double(), fc.integer()), flags });
    fc.assert(
      fc.property(result, message, (r, m) => {
        for (const event of [toolResult(r.id, r.uuid, r.content, r.isError), modelMessage(m.uuid, m.reply, m.timestamp, m.flags)]) {
          const made = textOf(event);
          if (made !== null) expect(made[0]).toBe(JSON.stringify(event));
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('check strings whose verdict is that of the whole text, secret or not', () => {
    const redact = createRedactor();
    // Fixed words only: the templates with empty strings are clean.
    for (const event of [toolResult('', '', ''), toolResult('', '', '', true), modelMessage('', {}, 1, { '': true })]) {
      expect(redact.isCleanJson(textOf(event)?.[0] ?? 'missing: secret')).toBe(true);
    }
    const words = ['sk-ant-api03-abcdefghijklmnop', 'Bearer abcdefghijkl', 'password=hunter22', 'AKIAABCDEFGHIJKLMNOP', 'API_KEY=x', 'ghp_', 'eyJ', 'xox', 'private key', 'cookie', 'SECRET', 'glpat-', 'aiza', 'token'];
    const piece = fc.oneof(fc.constantFrom(...words, ...AWKWARD, '"', ':', ',', '{', 'a'), fc.string({ maxLength: 6 }));
    const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, text, text, (id, uuid, content, flag) => {
        const events = [toolResult(id, uuid, content), toolResult(id, uuid, content, true), modelMessage(uuid, { ...REPLY, content: [{ type: 'text', text: content }] }, 5, { [flag]: true })];
        for (const event of events) {
          const [json, free] = textOf(event) ?? ['', ''];
          expect(redact.isCleanJson(free), json).toBe(redact.isCleanJson(json));
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('mask a secret in a tool result or a reply as before, with a secret value whole-text checked', () => {
    const redact = createRedactor();
    const secret = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz';
    const steps = [{ event: toolResult('toolu_1', 'u1', `key ${secret}`) }, { event: modelMessage('m', { ...REPLY, content: [{ type: 'text', text: secret }] }, 1, { toolu_1: true }) }];
    const { jsons } = loggedEventJsons(steps, redact, false);
    expect(jsons).toEqual(steps.map((step) => redact.toJson(step.event)));
    expect(jsons.join('')).not.toContain(secret);
    // A literal secret value may be one of the template's fixed words: with one, the whole text is checked.
    const byValue = createRedactor({ secretValues: ['tool_result'] });
    const masked = loggedEventJsons([{ event: toolResult('toolu_1', 'u1', 'x') }], byValue, true).jsons[0];
    expect(masked).toBe(byValue.toJson(toolResult('toolu_1', 'u1', 'x')));
    expect(masked).not.toContain('"tool_result"');
  });

  it('are what the recorder writes, and the log replays verified', async () => {
    const run = await recordRun(toolTurns(3));
    const lines = readFileSync(run.path, 'utf8').trimEnd().split('\n').slice(1);
    let templated = 0;
    for (const line of lines) {
      const event = JSON.parse(line).event as LoopEvent;
      const made = textOf(event);
      // Every tool result and reply of this run has a covered shape (the replies' blocks come one event each).
      expect(made === null).toBe(event.type !== 'tool_result' && event.type !== 'model_message');
      if (made === null) continue;
      templated += 1;
      expect(line).toContain(`"event":${made[0]},"at":`);
    }
    expect(templated).toBe(3 + 7);
    expect(replay(run.path).terminal).toEqual(run.terminal);
  });
});
