/**
 * The statechart's context: the reducer's `LoopContext` plus, for the duration of one step, the config (guards
 * read it) and the outbox of effects the step produces. `step()` adds both before a transition and takes them
 * out after it, so neither is ever part of the stored state.
 */
import type { LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { Effect } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { IterationState, LoopContext } from '../reducer/state.ts';

export interface MachineContext extends LoopContext {
  config: LoopConfig;
  outbox: Effect[];
}

/** What an action returns: the context fields it changes. */
export type ContextPatch = Partial<MachineContext>;

/** The signature of every action implementation: a pure function of context and event. */
export type ActionFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => ContextPatch;

/** The signature of every guard implementation. */
export type GuardFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => boolean;

/** An effect before its id is assigned. */
export type EffectDraft = Effect extends infer E ? (E extends Effect ? Omit<E, 'id'> : never) : never;

/**
 * Accumulates derived ids and effects for one action. Ids come from the run's counter (`<runId>:<prefix><n>`),
 * so the same inputs always give the same ids.
 */
export class Outbox {
  private seq: number;
  private readonly effects: Effect[];

  constructor(private readonly context: MachineContext) {
    this.seq = context.seq;
    this.effects = context.outbox.slice();
  }

  id(prefix: string): string {
    this.seq += 1;
    return `${this.context.runId}:${prefix}${this.seq}`;
  }

  /**
   * `effect` must be a fresh object (every caller passes a literal): it gets its id in place. Copying it with a
   * spread was a tenth of a memoized step (the spread site sees every effect shape, so it runs megamorphic).
   */
  push(effect: EffectDraft): this {
    (effect as Effect).id = this.id('e');
    this.effects.push(effect as Effect);
    return this;
  }

  emit(...messages: Message[]): this {
    for (const message of messages) this.push({ type: 'emit', message });
    return this;
  }

  /** The context fields to write back: the counter and the outbox. */
  patch(): { seq: number; outbox: Effect[] } {
    return { seq: this.seq, outbox: this.effects };
  }
}

/**
 * The patch that sets a history which is not `context.messages` extended at its end (edited, compacted,
 * stripped): it bumps `historyRevision`, so no model adapter takes the old history for a prefix of the new one.
 * Appending keeps the revision (`extendHistory`).
 */
export function replaceHistory(context: LoopContext, messages: Message[]): { messages: Message[]; historyRevision: number } {
  return { messages, historyRevision: messages === context.messages ? context.historyRevision : context.historyRevision + 1 };
}

export function emptyIteration(): IterationState {
  return {
    assistantMessages: [],
    toolUses: [],
    concurrencySafe: {},
    toolResults: [],
    answeredToolUseIds: [],
    needsFollowUp: false,
    withheld: null,
    abortReason: null,
    compacted: false,
    tokensFreed: 0,
    streamingToolsStarted: false,
    preventContinuation: false,
    usage: null,
    stopHookOutcome: null,
    collapseCommitted: 0,
  };
}

/** Resets what a model attempt collected, keeping what the context pipeline decided this iteration. */
export function resetAttempt(iter: IterationState): IterationState {
  return {
    ...emptyIteration(),
    compacted: iter.compacted,
    tokensFreed: iter.tokensFreed,
    abortReason: iter.abortReason,
  };
}
