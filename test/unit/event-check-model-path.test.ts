/**
 * `isLoopEvent`'s check of a model reply and of a model's end (src/data/event-check.ts) is written out, without the
 * small helpers the other event types compose (docs/benchmarks.md "Round 18: core"): the shell checks every model
 * event with it, mostly in V8's baseline tier, where each helper call costs more than its test. Its verdicts are
 * the schema's (`test/property/event-check.test.ts`); this holds the source to the written-out form, and checks
 * the reads it makes keep their order (a getter sees the same reads as before).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isLoopEvent } from '../../src/data/event-check.ts';

const source = readFileSync(new URL('../../src/data/event-check.ts', import.meta.url), 'utf8');

/** The text of a function declaration `name` in the module, up to the next top-level declaration. */
function body(name: string): string {
  const start = source.indexOf(`function ${name}(`);
  const end = source.indexOf('\n}\n', start);
  return source.slice(start, end);
}

describe('the model events\' check', () => {
  for (const name of ['isAssistantMessage', 'isUsage']) {
    it(`calls no helper: ${name}`, () => {
      expect(body(name)).not.toMatch(/\b(isObject|isString|isNumber|isOptional|isArrayOf|isBlock)\(/);
    });
  }

  it('reads a reply\'s members in the order the composed check did (guard)', () => {
    const reads: string[] = [];
    const watched = <T extends object>(prefix: string, target: T): T =>
      new Proxy(target, { get: (t, key, receiver) => (typeof key === 'string' && reads.push(`${prefix}${key}`), Reflect.get(t, key, receiver)) });
    const usage = watched('usage.', { input_tokens: 1, output_tokens: 2 });
    const body = watched('message.', { id: 'm', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage });
    const message = watched('', { type: 'assistant', uuid: 'u', message: body });
    expect(isLoopEvent({ type: 'model_message', message })).toBe(true);
    expect(reads.filter((r) => !/^message\.content\.|^usage\.(constructor|length)$/.test(r))).toEqual([
      'type', 'uuid', 'message', 'message.id', 'message.role', 'message.model', 'message.content', 'message.stop_reason', 'message.stop_reason',
      'message.usage', 'usage.cache_creation_input_tokens', 'usage.cache_read_input_tokens', 'usage.input_tokens', 'usage.output_tokens', 'apiError', 'timestamp',
    ]);
  });
});
