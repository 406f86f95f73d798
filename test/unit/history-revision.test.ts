/**
 * `historyRevision` is a fact of the JSON state, never of object identity. A compaction's messages come from the
 * event; a driver may hand back the very array the state already holds (the scripted worlds do, and so may an
 * embedder reusing a summary). Found by test/property/purity.test.ts: an autocompact then a reactive compact with
 * the same array kept the revision, while a JSON copy of the same state and event bumped it.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/data/effects.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import type { LoopState } from '../../src/data/state.ts';
import { apiError, compacted, compactSummary, jsonRoundTrip, params, reply, ScriptedWorld, testConfig } from '../helpers/index.ts';

describe('historyRevision after a compaction', () => {
  it('bumps on every compaction, even when the event carries the array the state holds, as a JSON copy would', () => {
    const summary = compactSummary();
    const config = testConfig({
      features: { autoCompact: true, reactiveCompact: true },
      models: { 'claude-sonnet-4-6': { contextWindow: 30_000, maxOutputTokens: 8_000, maxOutputTokensUpperLimit: 8_000 } },
    });
    // Big enough for an autocompact before the first call; the model then says prompt_too_long (reactive compact).
    const world = new ScriptedWorld({
      model: [reply(apiError('prompt_too_long')), reply(apiError('prompt_too_long'))],
      autocompact: () => compacted(summary),
      reactiveCompact: () => compacted(summary),
    });
    const start = initialState(params('x'.repeat(80_000)), config);
    const queue: LoopEvent[] = world.answer(start.effects);
    let state: LoopState = start.state;
    const seen: { type: string; revision: number }[] = [];
    for (let i = 0; i < 100 && queue.length > 0 && state.status !== 'done'; i++) {
      const event = queue.shift() as LoopEvent;
      const direct = step(state, event, config);
      const fromJson = step(jsonRoundTrip(state), jsonRoundTrip(event), jsonRoundTrip(config));
      expect(fromJson).toEqual(jsonRoundTrip(direct));
      if (event.type === 'autocompact_result' || event.type === 'reactive_compact_result') {
        expect(direct.state.context.messages).toBe(summary);
        seen.push({ type: event.type, revision: direct.state.context.historyRevision });
      }
      queue.push(...world.answer(direct.effects as Effect[]));
      state = direct.state;
    }
    expect(seen.map((s) => s.type)).toEqual(['autocompact_result', 'reactive_compact_result']);
    expect(seen.map((s) => s.revision)).toEqual([1, 2]);
  });
});
