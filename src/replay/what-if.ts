/**
 * What-if: re-fold the recorded events under another config (or other params) and report the first event where
 * the behaviour changes. No model, no tool, no clock: the recorded answers are fed as they were.
 *
 * Invariants:
 * - Both folds see the same events in the same order; "behaviour" at a step = the statechart state value, the
 *   Continue transition, the effect types and the terminal. The first step where any of them differs is reported.
 * - After a divergence the recorded answers no longer match what the new run would ask for, so nothing later is
 *   compared (the new run's outcome up to that point is still reported).
 */
import { resolveConfig, type ConfigOverrides } from '../config/config.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { createStepper } from '../reducer/stepper.ts';
import { loadSessionLog, type SessionLogSource } from './parse-session-log.ts';
import { checkMachineVersion } from './replay.ts';
import { stateValueString } from './stable-hash.ts';

export interface WhatIfOverrides {
  config?: ConfigOverrides;
  /** JSON params to change (e.g. `maxTurns`); messages cannot be changed. */
  params?: Partial<Omit<LoopParams, 'messages'>>;
}

/** The behaviour of one step, as compared by what-if. */
export interface StepBehaviour {
  value: string;
  transition: string | null;
  effects: string[];
  terminal: string | null;
}

export interface WhatIfReport {
  /** Steps compared (including the initial one). */
  compared: number;
  /** The first differing step, or null when the new config behaves the same on every recorded event. */
  divergence: { index: number; event: LoopEvent | null; old: StepBehaviour; new: StepBehaviour } | null;
  /** Terminal of the recorded run and of the new fold (null when the fold had not ended at that point). */
  oldTerminal: string | null;
  newTerminal: string | null;
}

function behaviourOf(state: LoopState, effects: readonly Effect[]): StepBehaviour {
  return {
    value: stateValueString(state.value),
    transition: state.context.transition?.reason ?? null,
    effects: effects.map((e) => e.type),
    terminal: state.status === 'done' ? (state.context.terminal?.reason ?? null) : null,
  };
}

const sameBehaviour = (a: StepBehaviour, b: StepBehaviour) =>
  a.value === b.value && a.transition === b.transition && a.terminal === b.terminal && a.effects.join() === b.effects.join();

/**
 * @example
 * whatIf('session.jsonl', { params: { maxTurns: 1 } }).divergence?.index
 */
export function whatIf(source: SessionLogSource, overrides: WhatIfOverrides, options: { allowVersionSkew?: boolean } = {}): WhatIfReport {
  const log = loadSessionLog(source);
  checkMachineVersion(log.header, options.allowVersionSkew);
  const oldConfig = log.header.config;
  const newConfig = overrides.config ? resolveConfig(overrides.config, oldConfig) : oldConfig;
  const newParams = { ...log.header.params, ...overrides.params };
  const { initialState, step } = createStepper({ memo: true });
  let oldStep = initialState(log.header.params, oldConfig);
  let newStep = initialState(newParams, newConfig);
  let compared = 0;
  const events: Array<LoopEvent | null> = [null, ...log.events.map((line) => line.event)];
  for (const [index, event] of events.entries()) {
    if (event !== null) {
      oldStep = step(oldStep.state, event, oldConfig);
      newStep = step(newStep.state, event, newConfig);
    }
    compared += 1;
    const oldB = behaviourOf(oldStep.state, oldStep.effects);
    const newB = behaviourOf(newStep.state, newStep.effects);
    if (!sameBehaviour(oldB, newB)) {
      // The recorded run goes on to its own end; the new one stops here (its answers would no longer match).
      let oldState = oldStep.state;
      for (const later of events.slice(index + 1)) if (later) oldState = step(oldState, later, oldConfig).state;
      return { compared, divergence: { index, event, old: oldB, new: newB }, oldTerminal: terminalOf(oldState), newTerminal: newB.terminal };
    }
  }
  const terminal = terminalOf(oldStep.state);
  return { compared, divergence: null, oldTerminal: terminal, newTerminal: terminal };
}

function terminalOf(state: LoopState): string | null {
  return state.status === 'done' ? (state.context.terminal?.reason ?? null) : null;
}
