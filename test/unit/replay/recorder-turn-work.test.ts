/**
 * Work the recorder leaves out of every turn (round 18), counted, not timed: the effects of a step are read by
 * index (no iterator per step), the group encoder hands out plain views of its buffer (no `subarray`, which runs
 * Buffer's own constructor), the secret check calls no `Array.prototype.every` when it has no secret values, and a
 * tool result's id written three times is checked once. The bytes these paths write are held elsewhere
 * (`log-v3-compat.test.ts`, `group-encoder.test.ts`, `message-event-json.test.ts`).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { LoopEvent } from '../../../src/data/events.ts';
import { toolResultEventJson } from '../../../src/replay/event-json.ts';
import { createGroupEncoder } from '../../../src/replay/group-encoder.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { createRedactor } from '../../../src/replay/redact.ts';
import { foldSessionLog, replay } from '../../../src/replay/replay.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';
import { recordRun, tempLogPath, toolTurns } from './fixtures.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** An array whose iterator throws: only a reader that goes by index can read it. */
function indexOnly<T>(items: readonly T[]): T[] {
  const copy = [...items];
  Object.defineProperty(copy, Symbol.iterator, {
    value: () => {
      throw new Error('read by iterator');
    },
  });
  return copy;
}

describe('the work a recorded turn leaves out', () => {
  it("reads a step's effects by index, and still commits before each model call", async () => {
    const run = await recordRun(toolTurns(3));
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync(run.path, 'utf8')))];
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config: resolveConfig({ sessionId: 'by-index' }), onError: () => {} });
    for (const step of steps) {
      recorder({ ...step, effects: indexOnly(step.effects) });
      // Before a model call every line so far is on disk.
      if (step.effects.some((effect) => effect.type === 'call_model')) expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(step.index + 1);
    }
    recorder.close();
    expect(recorder.error).toBeNull();
    expect(replay(path).steps).toBe(steps.length);
  });

  it('hashes and hands out plain views of its buffer, with no subarray per group', () => {
    const subarray = vi.spyOn(Buffer.prototype, 'subarray');
    const typedSubarray = vi.spyOn(Uint8Array.prototype, 'subarray');
    const encoder = createGroupEncoder();
    let previous = 'header-hash';
    for (const body of ['{"a":1}', '{"a":"é 😀"}\n{"b":2}']) {
      const { bytes, hash } = encoder.encode(previous, body);
      expect(hash).toBe(lineHash(previous, body));
      expect(Buffer.from(bytes).toString('utf8')).toBe(`${body},"hash":"${hash}"}\n`);
      previous = hash;
    }
    expect(subarray).not.toHaveBeenCalled();
    expect(typedSubarray).not.toHaveBeenCalled();
  });

  it('checks a text without secret values with no call of Array.prototype.every, and with them still finds them', () => {
    const every = vi.spyOn(Array.prototype, 'every');
    expect(createRedactor().isCleanJson('{"text":"plain words"}')).toBe(true);
    expect(every).not.toHaveBeenCalled();
    const byValue = createRedactor({ secretValues: ['hunter2-very-secret-value', 'another-value-1234'] });
    expect(byValue.isCleanJson('{"text":"plain words"}')).toBe(true);
    expect(byValue.isCleanJson('{"text":"it is another-value-1234"}')).toBe(false);
  });

  it("checks a tool result's id once when the event, its block and its source carry the same one", () => {
    const id = 'toolu_01AbCdEfGhIjKlMnOpQrStUv';
    const event = {
      type: 'tool_result',
      toolUseId: id,
      message: { type: 'user', uuid: 'u-1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'done' }] }, sourceToolUseId: id },
    } as LoopEvent;
    const [json, free] = toolResultEventJson(event) ?? ['', ''];
    expect(json).toBe(JSON.stringify(event));
    expect(free.split(JSON.stringify(id))).toHaveLength(2);
    // Another block id or source is still in the checked text.
    const other = { ...event, message: { ...(event as { message: object }).message, sourceToolUseId: 'toolu_other' } } as LoopEvent;
    expect(toolResultEventJson(other)?.[1]).toContain('"toolu_other"');
  });
});
