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
import type { Message, ToolUseBlock } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { IterationState, LoopContext } from '../data/state.ts';

export interface MachineContext extends LoopContext {
  config: LoopConfig;
}

/**
 * The context every guard and action is handed, in one fixed shape: the machine's context fields, the config and an
 * `effects` slot, built by one literal (`toScratchContext`). The memoized step writes action results into it in
 * place (`src/reducer/macrostep-memo.ts`), and the slot being there from the start means writing a result (which
 * carries its effects) never changes the object's shape. The machine's wrappers copy xstate's context into it
 * before each call (`loop-machine.ts`): xstate builds each context by `Object.assign({}, ...)`, a shape V8 drops
 * at the first full GC after the run, and every guard and action that had seen it would lose its optimized code
 * (docs/architecture.md, "Shapes that outlive a run"). Only the run's fields are ever copied out of it.
 */
export type ScratchContext = MachineContext & { effects: Effect[] | undefined; transient: TransientHistory | null };

/**
 * A fold's claim on one history array, for a driver that owns every state it steps from and drops each one after
 * the next step (replay's one-pass fold, `src/reducer/transient-fold.ts`). `array` is the copy an append of this
 * fold made (`extendHistory`): no event, effect the driver keeps, or state it hands out holds it, so the next
 * append may push onto it instead of copying the whole history again. Any other history (the initial one, one
 * taken from an event or edited) is copied by its first append, as always, and that copy becomes `array`. Null in
 * every scratch context but that driver's: `step()`, xstate's path and every other driver copy.
 */
export interface TransientHistory {
  array: Message[] | null;
  /**
   * The driver reads no effect of the fold but the `emit`s' messages (replay collects those, and drops the rest):
   * the outbox then keeps only `emit` effects, without ids, and keeps no other effect (`openOutbox`); the most
   * frequent request actions build none (`skipEffect`). Counters and message ids advance as ever, so every state
   * is the same.
   */
  readonly emitsOnly: boolean;
}

/**
 * `c` and `config` as a scratch context (see `ScratchContext`), with the caller's `transient` claim on the history
 * (see `TransientHistory`; none by default). The annotation makes a missing field an error.
 */
export function toScratchContext(c: LoopContext, config: LoopConfig, transient: TransientHistory | null = null): ScratchContext {
  const scratch: ScratchContext = {
    runId: c.runId,
    seq: c.seq,
    params: c.params,
    querySource: c.querySource,
    messages: c.messages,
    historyRevision: c.historyRevision,
    userContextMessage: c.userContextMessage,
    autoCompactTracking: c.autoCompactTracking,
    maxOutputTokensRecoveryCount: c.maxOutputTokensRecoveryCount,
    hasAttemptedReactiveCompact: c.hasAttemptedReactiveCompact,
    maxOutputTokensOverride: c.maxOutputTokensOverride,
    pendingToolUseSummary: c.pendingToolUseSummary,
    stopHookActive: c.stopHookActive,
    turnCount: c.turnCount,
    transition: c.transition,
    tokenBudget: c.tokenBudget,
    taskBudgetRemaining: c.taskBudgetRemaining,
    currentModel: c.currentModel,
    tokens: c.tokens,
    outputTokens: c.outputTokens,
    modelCalls: c.modelCalls,
    costUsd: c.costUsd,
    stopHookBlockingCount: c.stopHookBlockingCount,
    toolUseContext: c.toolUseContext,
    lastUsage: c.lastUsage,
    iter: c.iter,
    terminal: c.terminal,
    config,
    effects: undefined,
    transient,
  };
  return scratch;
}

/**
 * Writes every field of `c` into `target`, whose shape stays the scratch's (its config and history claim are
 * kept). Listed one by one like `toScratchContext` (a test holds the two to the same fields).
 */
export function fillContext(target: ScratchContext, c: LoopContext): void {
  target.runId = c.runId;
  target.seq = c.seq;
  target.params = c.params;
  target.querySource = c.querySource;
  target.messages = c.messages;
  target.historyRevision = c.historyRevision;
  target.userContextMessage = c.userContextMessage;
  target.autoCompactTracking = c.autoCompactTracking;
  target.maxOutputTokensRecoveryCount = c.maxOutputTokensRecoveryCount;
  target.hasAttemptedReactiveCompact = c.hasAttemptedReactiveCompact;
  target.maxOutputTokensOverride = c.maxOutputTokensOverride;
  target.pendingToolUseSummary = c.pendingToolUseSummary;
  target.stopHookActive = c.stopHookActive;
  target.turnCount = c.turnCount;
  target.transition = c.transition;
  target.tokenBudget = c.tokenBudget;
  target.taskBudgetRemaining = c.taskBudgetRemaining;
  target.currentModel = c.currentModel;
  target.tokens = c.tokens;
  target.outputTokens = c.outputTokens;
  target.modelCalls = c.modelCalls;
  target.costUsd = c.costUsd;
  target.stopHookBlockingCount = c.stopHookBlockingCount;
  target.toolUseContext = c.toolUseContext;
  target.lastUsage = c.lastUsage;
  target.iter = c.iter;
  target.terminal = c.terminal;
  target.effects = undefined;
}

/** The context fields an action changes. */
export type ContextPatch = Partial<MachineContext>;

/** What an action returns: the context fields it changes and, when it queues any, its effects in order. */
export type ActionResult = ContextPatch & { effects?: Effect[] };

/**
 * What an action returns when it changes nothing and queues nothing: one frozen empty patch, so the memoized step
 * can tell it apart by identity and skip writing it (`follow`, src/reducer/macrostep-memo.ts; about five a tool
 * turn). Never written to: an action that builds its patch up starts from a literal of its own.
 */
export const UNCHANGED: ActionResult = Object.freeze({});

/** The signature of every action implementation: a pure function of context and event. */
export type ActionFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => ActionResult;

/** The signature of every guard implementation. */
export type GuardFn<P = undefined> = (context: MachineContext, event: LoopEvent, params: P) => boolean;

/** An effect before its id is assigned. */
export type EffectDraft = Effect extends infer E ? (E extends Effect ? Omit<E, 'id'> : never) : never;

/**
 * Accumulates derived ids and the effects of one action. Ids come from the run's counter (`<runId>:<prefix><n>`),
 * so the same inputs always give the same ids. Opened by `openOutbox`.
 */
export interface Outbox {
  id(prefix: string): string;
  /**
   * `effect` must be a fresh object (every caller passes a literal): it gets its id in place. Copying it with a
   * spread was a tenth of a memoized step (the spread site sees every effect shape, so it runs megamorphic).
   */
  push(effect: EffectDraft): Outbox;
  emit(...messages: Message[]): Outbox;
  /** What the action returns for its ids and effects: the counter to write back and the effects queued. */
  patch(): { seq: number; effects: Effect[] };
  /**
   * `patch()` and the context fields the action changes: `{ ...out.patch(), ...fields }` without the spread.
   * `fields` must be a fresh object (every caller passes a literal): the counter and effects are written into it.
   * A spread of a fresh object followed by more fields cost about 1 µs on every call in V8 (its inline caches miss
   * each time), several times per tool turn; copying `fields` onto the patch was a runtime `Object.assign`.
   */
  patchWith<T extends ContextPatch>(fields: T): { seq: number; effects: Effect[] } & T;
}

interface OpenOutbox extends Outbox {
  seq: number;
  keepsEffects: boolean;
  readonly runId: string;
  effects: Effect[];
}

/**
 * Whether the step's effects are kept: false in a fold whose driver reads only emitted messages
 * (`TransientHistory.emitsOnly`). An action that queues one effect and emits nothing may then return
 * `skipEffect(context, fields)` instead of opening an outbox and building the effect.
 */
export function keepsEffects(context: MachineContext): boolean {
  const transient = (context as Partial<ScratchContext>).transient;
  return transient == null || !transient.emitsOnly;
}

/**
 * What an action that queues one effect returns when effects are not kept (`keepsEffects`): `fields` (a fresh
 * literal, as for `patchWith`) with the counter moved past the effect's id and no effects, as the outbox would
 * give after pushing it (`push` drops it, and builds no id).
 */
export function skipEffect<T extends ContextPatch>(context: MachineContext, fields: T): { seq: number; effects: Effect[] } & T {
  const patch = fields as { seq: number; effects: Effect[] } & T;
  patch.seq = context.seq + 1;
  patch.effects = NO_EFFECTS;
  return patch;
}

/**
 * An outbox for one action, starting at the context's counter.
 *
 * An object literal, not a class instance: V8 keeps a literal's shape alive with the function that builds it,
 * while the shape a constructor builds field by field dies with its last instance. Outboxes never outlive their
 * action, so with a class every full GC after a run dropped the shape, and with it the optimized code of every
 * action that had seen it (docs/architecture.md, "Shapes that outlive a run").
 */
export function openOutbox(context: MachineContext): Outbox {
  const out: OpenOutbox = {
    seq: context.seq,
    runId: context.runId,
    // The one empty array until the first push replaces it: most actions queue one effect or none, and an empty
    // literal per action was garbage every time. Frozen: nothing may push onto it (`follow` takes only non-empty
    // arrays for the step's own).
    effects: NO_EFFECTS,
    keepsEffects: keepsEffects(context),
    id: nextId,
    push,
    emit,
    patch,
    patchWith,
  };
  return out;
}

/**
 * The one empty effect list of an action or step that queued none (frozen: nobody may push onto it; a driver that
 * hands effects to a caller gives it its own array, `ownEffects` in `src/reducer/stepper.ts`).
 */
export const NO_EFFECTS: Effect[] = Object.freeze([]) as unknown as Effect[];

function nextId(this: OpenOutbox, prefix: string): string {
  this.seq += 1;
  return `${this.runId}:${prefix}${this.seq}`;
}

function push(this: OpenOutbox, effect: EffectDraft): Outbox {
  if (!this.keepsEffects) {
    // Counted as if pushed (the id's number), not kept unless emitted, and the id string never built.
    this.seq += 1;
    if (effect.type !== 'emit') return this;
    (effect as Effect).id = '';
  } else (effect as Effect).id = this.id('e');
  // The first effect makes an array of one: a push onto an empty literal reserves room for 16 (144 bytes, most of
  // what an action that queues one effect allocated).
  if (this.effects.length === 0) this.effects = [effect as Effect];
  else this.effects.push(effect as Effect);
  return this;
}

function emit(this: OpenOutbox, ...messages: Message[]): Outbox {
  // By index: a `for…of` made an iterator and a result object per message, in the baseline tier a call each.
  for (let i = 0; i < messages.length; i++) this.push({ type: 'emit', message: messages[i] });
  return this;
}

function patch(this: OpenOutbox): { seq: number; effects: Effect[] } {
  return { seq: this.seq, effects: this.effects };
}

function patchWith<T extends ContextPatch>(this: OpenOutbox, fields: T): { seq: number; effects: Effect[] } & T {
  const patch = fields as { seq: number; effects: Effect[] } & T;
  patch.seq = this.seq;
  patch.effects = this.effects;
  return patch;
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

/**
 * A fresh iteration. Its lists are made apart from the literal: an object literal holding another literal is
 * copied from its boilerplate by a runtime call (a deep copy), 2.5 times the cost of a flat literal and its five
 * lists in V8's baseline tier, where a cold turn runs this (docs/benchmarks.md, "Round 18: core").
 */
export function emptyIteration(): IterationState {
  const assistantMessages: Message[] = [];
  const toolUses: ToolUseBlock[] = [];
  const concurrencySafe: Record<string, boolean> = {};
  const toolResults: Message[] = [];
  const answeredToolUseIds: string[] = [];
  return {
    assistantMessages,
    toolUses,
    concurrencySafe,
    toolResults,
    answeredToolUseIds,
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

/**
 * A copy of `iter` for an action to change before returning it: `{ ...iter }` as one literal of the iteration's
 * fixed shape. A spread followed by changed fields missed V8's inline caches on every call (several times per
 * turn); the annotation makes a missing or unknown field a compile error.
 */
export function copyIteration(iter: IterationState): IterationState {
  const copy: IterationState = {
    assistantMessages: iter.assistantMessages,
    toolUses: iter.toolUses,
    concurrencySafe: iter.concurrencySafe,
    toolResults: iter.toolResults,
    answeredToolUseIds: iter.answeredToolUseIds,
    needsFollowUp: iter.needsFollowUp,
    withheld: iter.withheld,
    abortReason: iter.abortReason,
    compacted: iter.compacted,
    tokensFreed: iter.tokensFreed,
    streamingToolsStarted: iter.streamingToolsStarted,
    preventContinuation: iter.preventContinuation,
    usage: iter.usage,
    stopHookOutcome: iter.stopHookOutcome,
    collapseCommitted: iter.collapseCommitted,
  };
  return copy;
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
