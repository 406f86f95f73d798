/**
 * `step()` given an event its state does not take says so (docs/architecture.md, "What step() is"): an unknown
 * event type throws `UnknownEventError` (code `UNKNOWN_EVENT`) in any state; a known event the state at rest does
 * not accept returns the state unchanged with `ignored` (what, where, and what it accepts); a finished run keeps
 * returning itself and no effects.
 */
import { describe, expect, it } from 'vitest';
import { isTurnloopError } from '../../src/errors/turnloop-error.ts';
import { knownEventTypes } from '../../src/machine/accepted-events.ts';
import { loopEventSchema } from '../../src/data/event-schema.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepper } from '../../src/reducer/stepper.ts';
import { UnknownEventError } from '../../src/data/unknown-event-error.ts';
import { assistantText, drive, params, reply, testConfig } from '../helpers/index.ts';

const config = testConfig();
const bogus = { type: 'bogus' } as unknown as LoopEvent;

describe('step() and events its state does not take', () => {
  const start = initialState(params('hi'), config);
  const memo = createStepper({ memo: true });

  it('throws UnknownEventError for an unknown event type, naming it and the known ones', () => {
    for (const stepper of [{ step }, memo]) {
      let caught: unknown;
      try {
        stepper.step(start.state, bogus, config);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnknownEventError);
      expect(isTurnloopError(caught) && caught.code).toBe('UNKNOWN_EVENT');
      expect((caught as Error).message).toContain('"bogus"');
      expect((caught as Error).message).toContain('context_layer_result');
    }
    expect(() => step(start.state, null as unknown as LoopEvent, config)).toThrow(UnknownEventError);
  });

  it('marks a known event the waiting state does not accept as ignored, and changes nothing', () => {
    const waiting = start.state.value;
    const result = step(start.state, { type: 'model_done' }, config);
    expect(result.state).toBe(start.state);
    expect(result.effects).toEqual([]);
    expect(result.ignored?.event).toBe('model_done');
    expect(result.ignored?.state).toMatch(/^contextPipeline\.\w+Pending$/);
    expect(JSON.stringify(waiting)).toContain(result.ignored!.state.split('.')[1]!);
    expect(result.ignored?.accepts).toEqual(expect.arrayContaining(['context_layer_result', 'abort', 'tool_use_summary_ready']));
    expect(result.ignored?.accepts).not.toContain('model_done');
    expect(memo.step(start.state, { type: 'model_done' }, config)).toEqual(result);
    expect(memo.step(start.state, { type: 'model_done' }, config)).toEqual(result); // the memoized path too
  });

  it('does not mark an accepted event whose guard declined (a result for a tool_use nobody asked for)', () => {
    const run = drive(params('hi'), config, { model: [reply(assistantText('hello'))] });
    const sampling = run.steps.map((s) => s.state).find((s) => s.value === 'sampling');
    expect(sampling).toBeDefined();
    const stray = { type: 'tool_result', toolUseId: 'nobody', message: { type: 'user', uuid: 'u', message: { role: 'user', content: [] } } } as unknown as LoopEvent;
    const result = step(sampling!, stray, config);
    expect(result.state).toBe(sampling);
    expect(result.ignored).toBeUndefined();
  });

  it('after the end: the same state, no effects, no marker; an unknown type is still an error', () => {
    const run = drive(params('hi'), config, { model: [reply(assistantText('hello'))] });
    expect(run.state.status).toBe('done');
    expect(step(run.state, { type: 'abort', reason: 'user' }, config)).toEqual({ state: run.state, effects: [] });
    expect(() => step(run.state, bogus, config)).toThrow(UnknownEventError);
  });

  it('knows exactly the event types of the event schema (the chart handles every one somewhere)', () => {
    const schemaTypes = loopEventSchema.options.map((option) => option.shape.type.value as string).sort();
    expect(knownEventTypes()).toEqual(schemaTypes);
  });
});
