/**
 * `stepWithMemo` for a fold that owns its states: each state it steps from is dropped by the fold after the step,
 * and no state, effect or event it hands out holds the history the fold appends to. Such a fold (replay's
 * one-pass fold of log text, `src/replay/replay.ts`) hands in a `TransientHistory`: the history copy its first
 * append makes is claimed, and later appends push onto that copy in place instead of copying the whole history
 * each turn (`extendHistory`). Same results as `step()`: the final state of such a fold is deep-equal to a
 * `step()` fold's (test/property/transient-fold.test.ts).
 *
 * The price of "in place": the state stepped from sees the new messages too (its history is the same array). That is
 * why only a fold that keeps no earlier state may use this, and why it is not part of `step()` or `createStepper`.
 * Like the transients of persistent collections: a private, mutable phase that nothing outside ever observes.
 */
import type { LoopConfig } from '../config/config.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopState } from '../data/state.ts';
import { toScratchContext, type TransientHistory } from '../machine/machine-context.ts';
import { checkEventType, resultFromContext, unchangedBy, type StepResult } from './step.ts';
import { stepWithMemo, type StepMemo } from './stepper.ts';

export type { TransientHistory } from '../machine/machine-context.ts';

/** A fresh claim: no history claimed yet (the first append copies, as always). */
export function transientHistory(): TransientHistory {
  const transient: TransientHistory = { array: null };
  return transient;
}

/**
 * `stepWithMemo(owned, state, event, config)`, appending to `transient`'s claimed history in place (see the module
 * comment). The caller must drop `state` after this call and keep no other state of this fold. When the memo
 * misses (its path left after a guard answered otherwise, or a guard or action threw), messages pushed on the way
 * are taken off again before the step is taken the ordinary way, so xstate starts from `state` exactly as it was.
 */
export function stepTransient(owned: StepMemo, state: LoopState, event: LoopEvent, config: LoopConfig, transient: TransientHistory): StepResult {
  checkEventType(event);
  if (state.status === 'done') return { state, effects: [] };
  const claimed = transient.array;
  const history = state.context.messages;
  const length = history.length;
  const followed = owned.memo.follow(state.value, toScratchContext(state.context, config, transient), event);
  if (followed) {
    const { end } = followed;
    return end.unchanged ? unchangedBy(state, event) : resultFromContext(end.value, end.done, followed.context, followed.effects);
  }
  // A copy claimed on the way is dropped with the failed attempt; it stays claimed, and no state ever holds it.
  if (claimed === history) history.length = length;
  // Followed again without the claim (a second miss), then recorded from xstate: misses are the memo's first
  // passes over a path, a handful per process.
  return stepWithMemo(owned, state, event, config);
}
