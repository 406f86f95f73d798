/**
 * A fold that owns its states: `stepWithMemo` step after step, for a driver that keeps no state but the last one
 * (replay's one-pass fold of log text, `src/replay/replay.ts`). Same results as folding with `step()`: the state it
 * ends in is deep-equal to a `step()` fold's, and so are the effects of every step (test/property/transient-fold).
 *
 * What owning the states buys (each a cost that `step()` pays because any state it returns may be kept):
 * - The history grows in place. The copy of the history made by the fold's first append is claimed
 *   (`TransientHistory`), and later appends push onto it instead of copying the whole history each turn
 *   (`extendHistory`). Any other history (the initial one, one taken from an event or edited) is copied by its
 *   first append, as always.
 * - No effect it is not asked for: a driver that reads only emitted messages says so (`emitsOnly`), and the outbox
 *   then keeps no other effect and builds no effect id (the most frequent request actions build no effect).
 * - No state per step. The context lives in two scratch contexts (the machine's shape, `toScratchContext`): the
 *   memo runs a step's actions on one, filled from the other, and on a hit the two swap. No context copy, state or
 *   result object is built per step; `transientFoldState` builds the one state that leaves.
 *
 * On a memo miss (a guard answered otherwise than recorded, or a guard or action threw), the scratch the memo wrote
 * is dropped, messages pushed onto the history on the way are taken off again, and the step is taken the ordinary
 * way from the state as it was. Like the transients of persistent collections: a private, mutable phase that
 * nothing outside ever observes. Not part of `step()` or `createStepper`.
 */
import type { LoopConfig } from '../config/config.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopState } from '../data/state.ts';
import { toLoopContext } from '../machine/context-conversions.ts';
import { fillContext, toScratchContext, type ScratchContext, type TransientHistory } from '../machine/machine-context.ts';
import { checkEventType } from './step.ts';
import { stepWithMemo, type StepMemo } from './stepper.ts';

/** A fold in progress. Read `value`, `done` and `context` between steps; never keep `context` (it changes). */
export interface TransientFold {
  readonly owned: StepMemo;
  readonly config: LoopConfig;
  readonly transient: TransientHistory;
  /** The state value and whether the run is done, after the last step. */
  value: LoopState['value'];
  done: boolean;
  /** The context after the last step (a scratch context of the fold's own). */
  context: ScratchContext;
  /** The other scratch context: the next step is run on it. */
  spare: ScratchContext;
}

/**
 * A fold from `start` (the initial state); an object literal, its functions module functions (see `createStepper`).
 * `emitsOnly`: the caller reads no effect but the emitted messages (replay), so the steps build no other effect
 * (`TransientHistory.emitsOnly`): then each step's effects are its `emit` effects only, in order, their ids left
 * empty. The states are the same either way.
 */
export function startTransientFold(owned: StepMemo, start: LoopState, config: LoopConfig, emitsOnly = false): TransientFold {
  const transient: TransientHistory = { array: null, emitsOnly };
  const fold: TransientFold = {
    owned,
    config,
    transient,
    value: start.value,
    done: start.status === 'done',
    context: toScratchContext(start.context, config, transient),
    spare: toScratchContext(start.context, config, transient),
  };
  return fold;
}

/**
 * `stepWithMemo` of the fold's state and `event`: the fold moves on, and the step's effects are returned (with
 * `emitsOnly`, at least its `emit`s: a step the memo misses returns all its effects). Throws
 * what `step()` throws (an unknown event type); the fold is then left as it was. An effect may hold the fold's
 * history (a model request does), which later steps append to: read the effects before the next step. An empty
 * list may be one shared frozen array: never write to it.
 */
export function transientStep(fold: TransientFold, event: LoopEvent): Effect[] {
  checkEventType(event);
  if (fold.done) return [];
  const from = fold.context;
  const next = fold.spare;
  fillContext(next, from);
  const history = from.messages;
  const claimed = fold.transient.array === history;
  const length = history.length;
  const followed = fold.owned.memo.follow(fold.value, next, event);
  if (followed) {
    const { end } = followed;
    // An unchanged end ran no action: `next` is `from` again.
    if (!end.unchanged) {
      fold.value = end.value;
      fold.done = end.done;
      fold.context = next;
      fold.spare = from;
    }
    return followed.effects;
  }
  if (claimed) history.length = length;
  // Followed again without the fold's claims (a second miss), then recorded from xstate: misses are the memo's
  // first passes over a path, a handful per process. A copy claimed on the way died with `next`.
  const result = stepWithMemo(fold.owned, stateOf(fold), event, fold.config);
  fillContext(from, result.state.context);
  fold.value = result.state.value;
  fold.done = result.state.status === 'done';
  return result.effects;
}

/**
 * The fold's state, as a state of its own: the fold gives up its claim on the history, so if it goes on, its next
 * append copies the history again and never changes this state's.
 */
export function transientFoldState(fold: TransientFold): LoopState {
  fold.transient.array = null;
  return stateOf(fold);
}

function stateOf(fold: TransientFold): LoopState {
  return { value: fold.value, status: fold.done ? 'done' : 'active', context: toLoopContext(fold.context) };
}
