/**
 * Held honest (issue 32, item 4): each death-spiral guard broken in a copy of the machine, as mutation testing
 * would. The explorer must report a violation whose path replays (through the same mutant) past the bound, and
 * the bound computed from config must be wrong against that run; the path is written as a valid scenario.
 */
import { describe, expect, it } from 'vitest';
import { computeBounds } from '../../../src/bounds/compute-bounds.ts';
import { exploreLoop } from '../../../src/bounds/explore-loop.ts';
import { pathToScenario } from '../../../src/bounds/path-scenario.ts';
import { stepperFor, engineStepper, type Stepper } from '../../../src/bounds/stepper.ts';
import { answerEvents, type AnswerLabel } from '../../../src/bounds/abstract-answers.ts';
import { NOTHING_PENDING, waitAfter } from '../../../src/bounds/waiting.ts';
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../../../src/config/config.ts';
import { loopMachine } from '../../../src/machine/loop-machine.ts';
import type { MachineContext } from '../../../src/machine/machine-context.ts';
import { withheldKind } from '../../../src/machine/queries.ts';
import type { LoopParams, LoopState } from '../../../src/data/state.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { USER_PROMPT } from './small-configs.ts';

type GuardArgs = { context: MachineContext };

/** Replays answer labels through a stepper, answering what the loop waits for; returns the final state. */
function replay(stepper: Stepper, path: readonly AnswerLabel[], config: LoopConfig, params: LoopParams): LoopState {
  const first = stepper.initial(params, config);
  let state = first.state;
  let wait = waitAfter(first.effects, NOTHING_PENDING);
  for (const label of path) {
    const asked = wait.waiting ?? { kind: 'model' };
    wait = { waiting: null, executor: wait.executor };
    for (const event of answerEvents(label, asked, state, config)) {
      const result = stepper.step(state, event, config);
      state = result.state;
      wait = waitAfter(result.effects, wait);
    }
  }
  return state;
}

function firstViolation(stepper: Stepper, overrides: ConfigOverrides, params: LoopParams) {
  const config = resolveConfig(overrides);
  const result = exploreLoop(config, params, { stepper, stopAtFirstViolation: true, maxStates: 50_000 });
  expect(result.violations.length).toBeGreaterThan(0);
  const violation = result.violations[0];
  const scenario = pathToScenario(violation.path, config, overrides, params, `violation: ${violation.invariant}`, stepper);
  // The scenario file is valid as `turnloop simulate` reads it.
  expect(() => parseScenario(JSON.parse(JSON.stringify(scenario.scenario)), 'violation.json')).not.toThrow();
  return { config, violation, scenario, bounds: computeBounds(config, params) };
}

describe('the explorer catches a broken guard (mutant machines)', () => {
  it('no circuit breaker: autocompact is attempted after the breaker should have opened', () => {
    const mutant = stepperFor(
      loopMachine.provide({
        guards: {
          shouldAutocompact: ({ context }: GuardArgs) =>
            context.config.features.autoCompact && context.tokens.reported + context.tokens.estimatedSince >= 100_000,
        },
      }),
    );
    const params: LoopParams = { messages: USER_PROMPT, maxTurns: 4 };
    const overrides: ConfigOverrides = {
      features: { toolResultBudget: false, microcompact: false },
      limits: { autocompactMaxFailures: 2, maxOutputTokensRecovery: 0, maxStopHookBlocking: 0, maxModelCalls: 5 },
    };
    const { config, violation, scenario } = firstViolation(mutant, overrides, params);
    expect(violation.invariant).toBe('compaction_breaker');
    expect(violation.path.filter((l) => l === 'autocompact:fail')).toHaveLength(config.limits.autocompactMaxFailures);
    expect(scenario.reproducible).toBe(true);
    expect(scenario.scenario.compaction?.autocompact).toEqual(['fail', 'fail']);
    // The real machine, given the same answers, never asks a third time.
    const real = exploreLoop(config, params, { maxStates: 50_000 });
    expect(real.violations).toEqual([]);
  });

  it('recovery beyond the limit: more max_output_tokens recoveries than the bound allows', () => {
    const mutant = stepperFor(
      loopMachine.provide({
        guards: {
          canRecoverMaxOutputTokens: ({ context }: GuardArgs) =>
            withheldKind(context) === 'max_output_tokens' && context.maxOutputTokensRecoveryCount < context.config.limits.maxOutputTokensRecovery + 2,
        },
      }),
    );
    const overrides: ConfigOverrides = { limits: { maxOutputTokensRecovery: 1, maxStopHookBlocking: 0, maxModelCalls: 10 } };
    const params: LoopParams = { messages: USER_PROMPT, maxTurns: 1 };
    const { config, violation, scenario, bounds } = firstViolation(mutant, overrides, params);
    expect(violation.invariant).toBe('within_bounds');
    expect(violation.detail).toMatch(/max_output_tokens_recovery #2 > bound 1/);
    expect(scenario.scenario.model.length).toBeGreaterThan(bounds.continues.max_output_tokens_recovery);
    // Through the mutant the path makes more calls than the real machine allows on the same answers.
    const mutantEnd = replay(mutant, violation.path, config, params);
    const realEnd = replay(engineStepper(), violation.path, config, params);
    expect(mutantEnd.context.maxOutputTokensRecoveryCount).toBeGreaterThan(bounds.continues.max_output_tokens_recovery);
    expect(realEnd.context.maxOutputTokensRecoveryCount).toBeLessThanOrEqual(bounds.continues.max_output_tokens_recovery);
  });

  it('max_turns fails open: the run takes more turns and model calls than the bound', () => {
    const mutant = stepperFor(loopMachine.provide({ guards: { maxTurnsReached: () => false } }));
    const overrides: ConfigOverrides = { features: { reactiveCompact: false }, limits: { maxOutputTokensRecovery: 0, maxStopHookBlocking: 0, maxModelCalls: 10 } };
    const params: LoopParams = { messages: USER_PROMPT, maxTurns: 2 };
    const { config, violation, scenario, bounds } = firstViolation(mutant, overrides, params);
    expect(violation.invariant).toBe('within_bounds');
    expect(bounds.mainModelCalls).toBe(2);
    const end = replay(mutant, violation.path, config, params);
    expect(end.context.turnCount).toBeGreaterThan(params.maxTurns as number);
    expect(scenario.reproducible).toBe(true);
    expect(scenario.scenario.params.maxTurns).toBe(2);
  });
});
