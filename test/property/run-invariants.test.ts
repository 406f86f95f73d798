/**
 * docs/loop.md §9.7-9.11: what holds for every run as a whole — sources that must never compact, nothing after a
 * terminal, pairing of every history sent to the model, a bounded number of model calls ending in exactly one
 * terminal, and determinism, purity and JSON-serializability of `step()`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeBounds } from '../../src/bounds/compute-bounds.ts';
import { TERMINAL_REASONS } from '../../src/data/outcomes.ts';
import { step } from '../../src/reducer/step.ts';
import { environmentArb, environmentWith, type Environment } from './arbitraries/environment.ts';
import { anyEventArb } from './arbitraries/events.ts';
import { describeRun, modelCallBound, pairingViolations, tightModelCallBound } from './checks.ts';
import { runEnvironment, type Recording } from './fake-interpreter.ts';
import { propertyOptions } from './settings.ts';

function run(env: Environment): Recording {
  const recording = runEnvironment(env);
  expect(recording.stuck || recording.boundHit, 'the run must end').toBe(false);
  return recording;
}

/** Compaction runs with big contexts: the case where autocompact and the blocking check would fire. */
const compactSourceArb = environmentWith((env) => ({
  ...env,
  params: { ...env.params, querySource: env.model.length % 2 === 0 ? 'compact' : 'session_memory' },
}));

describe('run invariants (docs/loop.md §9.7-9.11)', () => {
  test('§9.7 compact and session_memory sources never autocompact and never end in blocking_limit', () => {
    fc.assert(
      fc.property(compactSourceArb, (env) => {
        const recording = run(env);
        const autocompacts = recording.effects.filter((e) => e.type === 'autocompact');
        expect(autocompacts, `autocompact for ${env.params.querySource}: ${describeRun(recording)}`).toEqual([]);
        expect(recording.terminal?.reason, describeRun(recording)).not.toBe('blocking_limit');
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.8 after a terminal, step yields no effect and the state no longer changes', () => {
    fc.assert(
      fc.property(environmentArb, fc.array(anyEventArb, { maxLength: 8 }), (env, extra) => {
        const recording = run(env);
        expect(recording.final.status).toBe('done');
        for (const late of recording.afterTerminal) {
          expect(late.effects, `effects after the terminal for ${late.event.type}`).toEqual([]);
          expect(late.changed, `state changed after the terminal by ${late.event.type}`).toBe(false);
        }
        const frozen = JSON.stringify(recording.final);
        for (const event of extra) {
          const result = step(recording.final, event, env.config);
          expect(result.effects, `effects after the terminal for ${event.type}`).toEqual([]);
          expect(JSON.stringify(result.state), `state changed after the terminal by ${event.type}`).toBe(frozen);
        }
      }),
      propertyOptions<[Environment, unknown[]]>(200),
    );
  });

  test('§9.9 every tool_use in a history sent to the model is paired with exactly one tool_result', () => {
    fc.assert(
      fc.property(environmentArb, (env) => {
        const recording = run(env);
        for (const [index, request] of recording.modelRequests.entries()) {
          const problems = pairingViolations(request.messages);
          expect(problems, `call ${index + 1}: ${describeRun(recording)}`).toEqual([]);
        }
      }),
      propertyOptions<[Environment]>(400),
    );
  });

  test('§9.10 model calls stay within the configured bound and the run ends in one terminal, announced once, last', () => {
    fc.assert(
      fc.property(environmentArb, (env) => {
        const recording = runEnvironment(env);
        expect(recording.boundHit, 'interpreter safety bound hit').toBe(false);
        expect(recording.stuck, 'engine waits for an answer nobody gives').toBe(false);
        const calls = recording.modelRequests.length;
        expect(calls, describeRun(recording)).toBeLessThanOrEqual(modelCallBound(env.config));
        const tight = tightModelCallBound(env.config, env.params);
        if (tight !== null) expect(calls, `tight bound ${tight}: ${describeRun(recording)}`).toBeLessThanOrEqual(tight);
        expect(TERMINAL_REASONS).toContain(recording.terminal?.reason);
        const terminated = recording.effects.filter((e) => e.type === 'terminated');
        expect(terminated).toHaveLength(1);
        expect(recording.effects[recording.effects.length - 1]).toBe(terminated[0]);
      }),
      propertyOptions<[Environment]>(400),
    );
  });

  test('§9.10 every run stays within computeBounds: model calls and each Continue (docs/bounds.md)', () => {
    fc.assert(
      fc.property(environmentArb, (env) => {
        const recording = run(env);
        const bounds = computeBounds(env.config, env.params);
        expect(recording.modelRequests.length, describeRun(recording)).toBeLessThanOrEqual(bounds.mainModelCalls);
        const taken: Record<string, number> = {};
        for (const { transition } of recording.continues) taken[transition.reason] = (taken[transition.reason] ?? 0) + 1;
        for (const [reason, count] of Object.entries(taken)) {
          expect(count, `${reason}: ${describeRun(recording)}`).toBeLessThanOrEqual(bounds.continues[reason as keyof typeof bounds.continues]);
        }
      }),
      propertyOptions<[Environment]>(400),
    );
  });

  test('§9.11 same environment, same effects and messages byte for byte; inputs never mutated; state survives JSON', () => {
    fc.assert(
      fc.property(environmentArb, (env) => {
        const first = runEnvironment(env);
        const second = runEnvironment(env);
        // Frozen inputs (a mutation throws in strict mode) and every state passed through a JSON round trip.
        const frozen = runEnvironment(env, { freeze: true, roundTrip: true });
        const signature = (r: Recording) => JSON.stringify({ effects: r.effects, final: r.final });
        expect(signature(second)).toBe(signature(first));
        expect(signature(frozen)).toBe(signature(first));
        for (const s of first.steps) expect(JSON.parse(JSON.stringify(s.after))).toEqual(s.after);
      }),
      propertyOptions<[Environment]>(100),
    );
  });
});
