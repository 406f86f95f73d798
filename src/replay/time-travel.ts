/**
 * Time travel: the state of a recorded run at any event, without running anything.
 *
 * Pure over the log: folds (and verifies, unless overrides are given) the events up to `index` and stops there.
 * Index 0 is the initial state; index n the state right after event n.
 */
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopState } from '../data/state.ts';
import { loadSessionLog, type SessionLogSource } from './parse-session-log.ts';
import { foldSessionLog, type ReplayOptions } from './replay.ts';
import { stateValueString } from './stable-hash.ts';
import { PendingEffectTracker } from './pending-effects.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface StateAtResult {
  index: number;
  /** The event of step `index` (null for the initial state). */
  event: LoopEvent | null;
  state: LoopState;
  /** The active statechart state, as a dotted path (e.g. `exitLadder.stopHooks`). */
  value: string;
  /** The effects step `index` produced (messages to show, requests started). */
  stepEffects: Effect[];
  /** The requests whose answers the state at `index` waits for (possibly started by earlier steps). */
  pendingEffects: Effect[];
  /** Events in the log (the highest valid index). */
  lastIndex: number;
}

/** Thrown when `index` lies outside the log. */
export class IndexOutOfRangeError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    readonly index: number,
    readonly lastIndex: number,
  ) {
    super('INDEX_OUT_OF_RANGE', `event index ${index} is outside the log (0..${lastIndex})`);
    this.name = 'IndexOutOfRangeError';
  }
}

/**
 * @example
 * const { value, pendingEffects } = stateAt('session.jsonl', 12);
 */
export function stateAt(source: SessionLogSource, index: number, options: ReplayOptions = {}): StateAtResult {
  const log = loadSessionLog(source);
  const lastIndex = log.events.length;
  if (!Number.isInteger(index) || index < 0 || index > lastIndex) throw new IndexOutOfRangeError(index, lastIndex);
  const tracker = new PendingEffectTracker();
  for (const folded of foldSessionLog(log, options)) {
    tracker.observe(folded.effects);
    if (folded.index === index) {
      return {
        index,
        event: folded.event,
        state: folded.state,
        value: stateValueString(folded.state.value),
        stepEffects: folded.effects,
        pendingEffects: tracker.awaitedBy(folded.state),
        lastIndex,
      };
    }
  }
  throw new IndexOutOfRangeError(index, lastIndex);
}
