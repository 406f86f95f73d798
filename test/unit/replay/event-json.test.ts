/**
 * The recorder writes the events nearly every turn logs alike from templates (`event-json.ts`): each text
 * must be exactly `JSON.stringify` of the event, any other shape must go the usual way, and leaving those texts
 * out of the secret check must never let a secret through.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../../src/data/events.ts';
import { commonEventJson } from '../../../src/replay/event-json.ts';
import { createRedactor, type RedactOptions } from '../../../src/replay/redact.ts';
import { replay } from '../../../src/replay/replay.ts';
import { recordRun, toolTurns } from './fixtures.ts';

const LAYERS = ['tool_result_budget', 'snip', 'microcompact', 'context_collapse'] as const;
const STOP_REASONS = ['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', null] as const;
const NUMBERS = [0, -0, 1, 20, 1000, 1e21, 1.5, -3, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE];

/** The shapes the templates cover, with every layer, stop reason and sort of finite number. */
function commonEvents(): LoopEvent[] {
  const events: LoopEvent[] = [{ type: 'tools_finished' }, { type: 'attachments_collected', attachments: [] }];
  for (const layer of LAYERS) for (const tokensFreed of NUMBERS) events.push({ type: 'context_layer_result', layer, edits: [], tokensFreed });
  for (const stopReason of STOP_REASONS) {
    for (const n of NUMBERS) events.push({ type: 'model_done', usage: { input_tokens: n, output_tokens: 20 }, stopReason });
  }
  return events;
}

describe('commonEventJson', () => {
  it('writes exactly JSON.stringify for every shape it covers', () => {
    for (const event of commonEvents()) expect(commonEventJson(event), JSON.stringify(event)).toBe(JSON.stringify(event));
  });

  it('gives up (null) on any other shape, and never writes a text JSON.stringify would not', () => {
    const withToJson = Object.defineProperty({ type: 'tools_finished' }, 'toJSON', { value: () => ({ other: true }), enumerable: false });
    const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
    inherited.type = 'tools_finished';
    const others: unknown[] = [
      { type: 'tools_finished', extra: 1 },
      withToJson,
      inherited,
      { attachments: [], type: 'attachments_collected' },
      { type: 'attachments_collected', attachments: [{ type: 'user' }] },
      { type: 'context_layer_result', layer: 'other_layer', edits: [], tokensFreed: 0 },
      { type: 'context_layer_result', layer: 'snip', edits: [{ op: 'remove', uuid: 'u' }], tokensFreed: 3 },
      { type: 'context_layer_result', layer: 'snip', edits: [], tokensFreed: Number.NaN },
      { type: 'context_layer_result', layer: 'snip', edits: [], tokensFreed: 0, emitted: [] },
      { type: 'context_layer_result', layer: 'snip', edits: [], tokensFreed: '0' },
      { type: 'model_done', usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3 }, stopReason: 'end_turn' },
      { type: 'model_done', usage: { output_tokens: 2, input_tokens: 1 }, stopReason: 'end_turn' },
      { type: 'model_done', usage: { input_tokens: 1, output_tokens: Number.POSITIVE_INFINITY }, stopReason: 'end_turn' },
      { type: 'model_done', usage: { input_tokens: 1, output_tokens: 2 }, stopReason: 'end"turn' },
      { type: 'model_done', usage: { input_tokens: 1, output_tokens: 2 } },
      { type: 'model_done', stopReason: 'end_turn' },
      { type: 'model_message', message: {} },
    ];
    for (const event of others) expect(commonEventJson(event as LoopEvent), JSON.stringify(event)).toBeNull();
    // Generated events of the covered types with members drawn at random: a text, when there is one, is the JSON.
    const value = fc.oneof(fc.constantFrom<unknown>(...LAYERS, ...STOP_REASONS, [], 0, 7, Number.NaN, 'x', {}, undefined), fc.jsonValue());
    const type = fc.constantFrom('tools_finished', 'attachments_collected', 'context_layer_result', 'model_done');
    const member = fc.constantFrom('layer', 'edits', 'tokensFreed', 'usage', 'stopReason', 'attachments', 'input_tokens', 'output_tokens', 'emitted');
    fc.assert(
      fc.property(type, fc.array(fc.tuple(member, value), { maxLength: 5 }), fc.array(fc.tuple(member, value), { maxLength: 3 }), (kind, members, usage) => {
        const event: Record<string, unknown> = { type: kind };
        for (const [key, item] of members) event[key] = key === 'usage' ? Object.fromEntries(usage) : item;
        const json = commonEventJson(event as LoopEvent);
        if (json !== null) expect(json).toBe(JSON.stringify(event));
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes texts the secret check finds clean, so leaving them out of it hides nothing', () => {
    const redact = createRedactor();
    for (const event of commonEvents()) expect(redact.isCleanJson(commonEventJson(event) ?? 'missing: secret')).toBe(true);
  });
});

describe('the recorder and the common events', () => {
  it('masks a secret value or an extra pattern that matches a common event text, as it masks any other', async () => {
    // A secret value equal to a layer's name, and a pattern matching a stop reason, each alone: those texts must be
    // checked (the masked log no longer names a layer the schema knows, as before: what matters is that nothing
    // leaks). The line's state digest names the state `microcompactPending`, which is no event's text.
    const loggedEvents = async (redact: RedactOptions) => {
      const run = await recordRun({ ...toolTurns(2), redact });
      const events = readFileSync(run.path, 'utf8').trimEnd().split('\n').slice(1).map((line) => JSON.parse(line).event as LoopEvent);
      expect(events.some((event) => event.type === 'context_layer_result')).toBe(true);
      expect(events.some((event) => event.type === 'model_done')).toBe(true);
      return JSON.stringify(events);
    };
    const byValue = await loggedEvents({ secretValues: ['microcompact'] });
    expect(byValue).not.toContain('microcompact');
    expect(byValue).toContain('tool_result_budget');
    const byPattern = await loggedEvents({ patterns: [/end_turn/] });
    expect(byPattern).not.toContain('end_turn');
    expect(byPattern).toContain('tool_result_budget');
  });

  it('writes the common events from templates when nothing literal is masked, and the log replays verified', async () => {
    const run = await recordRun(toolTurns(3));
    const lines = readFileSync(run.path, 'utf8').trimEnd().split('\n').slice(1);
    let templated = 0;
    for (const line of lines) {
      const event = JSON.parse(line).event as LoopEvent;
      const json = commonEventJson(event);
      if (json === null) continue;
      templated += 1;
      expect(line).toContain(`"event":${json},"at":`);
    }
    expect(templated).toBeGreaterThanOrEqual(3 * 4);
    expect(replay(run.path).terminal).toEqual(run.terminal);
  });
});
