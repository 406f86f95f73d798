/**
 * The statechart's context: the reducer's `LoopContext` plus, for the duration of one step, the config (guards
 * read it). `step()` adds it before a transition (the machine's `input` on the first) and takes it out after, so
 * it is never part of the stored state.
 *
 * Actions return the context fields they change and, apart, the effects they queue (`ActionResult`); the machine's
 * action wrappers turn the two into an `assign` and one named effect action each (`loop-machine.ts`), so effects
 * leave a step as xstate's own action list, never through the context.
 */
import type { LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { Effect } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { IterationState, LoopContext } from '../reducer/state.ts';

export interface MachineContext extends LoopContext {
  config: LoopConfig;
}

/** The context fields an action changes. */
export type ContextPatch = Partial<MachineContext>;

/** What an action returns: the context fields it changes and, when it queues any, its effects in order. */
export type ActionResult = ContextPatch & { effects?: Effect[] };

/** The signature of every action implementation: a pure function of context and event. */
export type ActionFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => ActionResult;

/** The signature of every guard implementation. */
export type GuardFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => boolean;

/** An effect before its id is assigned. */
export type EffectDraft = Effect extends infer E ? (E extends Effect ? Omit<E, 'id'> : never) : never;

/**
 * Accumulates derived ids and the effects of one action. Ids come from the run's counter (`<runId>:<prefix><n>`),
 * so the same inputs always give the same ids.
 */
export class Outbox {
  private seq: number;
  private readonly effects: Effect[] = [];

  constructor(private readonly context: MachineContext) {
    this.seq = context.seq;
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

  /** What the action returns for its ids and effects: the counter to write back and the effects queued. */
  patch(): { seq: number; effects: Effect[] } {
    return { seq: this.seq, effects: this.effects };
  }

  /**
   * `patch()` and the context fields the action changes: `{ ...out.patch(), ...fields }` without the spread. A
   * spread of a fresh object followed by more fields cost about 1 µs on every call in V8 (its inline caches miss
   * each time), several times per tool turn.
   */
  patchWith<T extends ContextPatch>(fields: T): { seq: number; effects: Effect[] } & T {
    return Object.assign(this.patch(), fields);
  }
}

/**
 * The patch that sets a history computed from `context.messages` which is not that history extended at its end
 * (edited, stripped): it bumps `historyRevision`, so no model adapter takes the old history for a prefix of the
 * new one. An edit that changed nothing returns its input, and that keeps the revision. Appending keeps it too
 * (`extendHistory`).
 */
export function replaceHistory(context: LoopContext, messages: Message[]): { messages: Message[]; historyRevision: number } {
  return messages === context.messages ? { messages, historyRevision: context.historyRevision } : newHistory(context, messages);
}

/**
 * The patch that sets a history taken from an event (a compaction's): always a new revision. Never compared by
 * identity with `context.messages`: the event may carry the very array the state holds, and a JSON copy of the
 * same state and event would not, so the result would depend on object identity (test/property/purity.test.ts).
 */
export function newHistory(context: LoopContext, messages: Message[]): { messages: Message[]; historyRevision: number } {
  return { messages, historyRevision: context.historyRevision + 1 };
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
