/**
 * `drive()`: runs the pure reducer against a scripted world until the run ends, recording everything. The
 * smallest possible interpreter: no I/O, no time, no randomness, so a test reads like the scenario it pins down.
 *
 * @example
 * const run = drive(params('hi'), testConfig(), { model: [reply(assistantText('hello'))] });
 * expect(run.terminal).toEqual({ reason: 'completed' });
 */
import type { LoopConfig } from '../../src/config/config.ts';
import type { Message } from '../../src/messages/types.ts';
import type { Effect, EffectOf, EffectType, ModelRequest } from '../../src/data/effects.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { Continue, Terminal } from '../../src/data/outcomes.ts';
import type { LoopParams, LoopState } from '../../src/data/state.ts';
import { isDeepStrictEqual } from 'node:util';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepper } from '../../src/reducer/stepper.ts';
import { deepFreeze, jsonRoundTrip } from './deep-freeze.ts';
import type { Script } from './script.ts';
import { ScriptedWorld } from './scripted-world.ts';

export interface DriveStep {
  event: LoopEvent;
  effects: Effect[];
  state: LoopState;
}

/** One Continue, with the states around it: `before` is the state the ladder/tools left, `after` the new iteration's. */
export interface ContinueRecord {
  transition: Continue;
  /** Index in `steps` of the step that took the Continue. */
  step: number;
  before: LoopState;
  after: LoopState;
}

export interface DriveResult {
  /** What `initialState()` returned. */
  start: { state: LoopState; effects: Effect[] };
  steps: DriveStep[];
  /** Every effect, the initial ones included, in order. */
  effects: Effect[];
  requests: ModelRequest[];
  /** The messages of `emit` effects, in order. */
  emitted: Message[];
  continues: ContinueRecord[];
  terminal: Terminal | null;
  state: LoopState;
  /** True when the loop waits for an answer the script did not give (e.g. after an injected abort). */
  stalled: boolean;
}

export interface DriveOptions {
  /** Deep-freeze params, config, every state and event handed to `step()` (default true). */
  freeze?: boolean;
  /** Hand `step()` a JSON copy of the state each time, as a resumed session would (default false). */
  jsonState?: boolean;
  /** Throw when the run takes more steps (default 5,000): a loop that never ends is a bug. */
  maxSteps?: number;
}

/** Shared by every driven test, so its memo also serves paths recorded in other runs (as a long-lived driver's would). */
const memoStepper = createStepper({ memo: true });

export function drive(params: LoopParams, config: LoopConfig, script: Script, options: DriveOptions = {}): DriveResult {
  const freeze = options.freeze ?? true;
  const guard = <T>(value: T): T => (freeze ? deepFreeze(value) : value);
  const maxSteps = options.maxSteps ?? 5_000;
  const world = new ScriptedWorld(script);

  const start = initialState(guard(params), guard(config));
  const result: DriveResult = {
    start,
    steps: [],
    effects: [...start.effects],
    requests: [],
    emitted: [],
    continues: [],
    terminal: null,
    state: start.state,
    stalled: false,
  };
  const queue: LoopEvent[] = [];
  const take = (effects: Effect[]) => {
    for (const effect of effects) {
      if (effect.type === 'call_model') result.requests.push(effect.request);
      if (effect.type === 'emit') result.emitted.push(effect.message);
    }
    queue.push(...world.answer(effects));
  };
  take(start.effects);

  let state = start.state;
  while (state.status !== 'done' && queue.length > 0) {
    if (result.steps.length >= maxSteps) throw new Error(`drive: no terminal after ${maxSteps} steps (state ${JSON.stringify(state.value)})`);
    const event = guard(queue.shift() as LoopEvent);
    const input = guard(options.jsonState ? jsonRoundTrip(state) : state);
    const next = step(input, event, config);
    // Every step of every driven test doubles as a check of the memoized stepper against plain step().
    if (!isDeepStrictEqual(next, memoStepper.step(input, event, config))) {
      throw new Error(`drive: step() and the memoized stepper differ on ${event.type} in state ${JSON.stringify(state.value)}`);
    }
    result.steps.push({ event, effects: next.effects, state: next.state });
    result.effects.push(...next.effects);
    // Every iteration after the first starts with request_start: that step took a Continue.
    if (next.effects.some((e) => e.type === 'request_start') && next.state.context.transition) {
      result.continues.push({ transition: next.state.context.transition, step: result.steps.length - 1, before: state, after: next.state });
    }
    take(next.effects);
    state = next.state;
  }
  result.state = state;
  result.terminal = state.status === 'done' ? state.context.terminal : null;
  result.stalled = state.status !== 'done';
  return result;
}

// --- reading a run -------------------------------------------------------------------------------------------

export function effectsOf<T extends EffectType>(run: Pick<DriveResult, 'effects'>, type: T): EffectOf<T>[] {
  return run.effects.filter((e): e is EffectOf<T> => e.type === type);
}

export function emittedOf<T extends Message['type']>(run: Pick<DriveResult, 'emitted'>, type: T): Extract<Message, { type: T }>[] {
  return run.emitted.filter((m): m is Extract<Message, { type: T }> => m.type === type);
}

export const continueReasons = (run: DriveResult): string[] => run.continues.map((c) => c.transition.reason);

/** The Continue records with this reason. */
export function continuesOf(run: DriveResult, reason: Continue['reason']): ContinueRecord[] {
  return run.continues.filter((c) => c.transition.reason === reason);
}
