/**
 * The effect protocol, read from the chart: which effect each waiting state awaits and which events answer it,
 * which effects are answered at any time (matched by id), and which are fire-and-forget.
 *
 * The chart declares it once, in `meta` (`awaits` on each waiting state, `effects` on the root; see
 * `loop-machine.ts`); this module derives one table from those declarations when it is imported. Everything outside
 * the machine that needs to know "what is this state waiting for" or "does this event answer that effect" (resume,
 * the viewer's pending effects, drivers' fallback events, OpenTelemetry spans, `step()`'s refusal of an event a
 * state does not accept) asks here, never by a state name of its own.
 *
 * Invariants (tested in `test/unit/effect-protocol.test.ts`): every effect type has exactly one row; every waiting
 * state (an atomic, non-final state without eventless transitions) declares what it awaits; every declared answer is
 * an event the state accepts.
 */
import { EFFECT_TYPES, type Effect, type EffectOf, type EffectType } from '../data/effects.ts';
import type { LoopEvent, LoopEventType } from '../data/events.ts';
import type { LoopState } from '../data/state.ts';
import { loopMachine, type EFFECT_DECLARATIONS } from './loop-machine.ts';

/** A waiting state's `meta.awaits`: the effects it waits on (any one of them) and the events that answer them. */
export interface AwaitDeclaration {
  effects: EffectType[];
  answers: LoopEventType[];
}

/** An answer carrying `event` must name the effect it answers: `event[eventField] === effect[effectPath]`. */
export interface AnswerMatch {
  eventField: string;
  /** A dotted path into the effect, e.g. `toolUse.id`. */
  effectPath: string;
}

/** The root's `meta.effects`: the effects no state waits on. */
export interface EffectDeclarations {
  /** Executed, never answered. */
  fireAndForget: readonly EffectType[];
  /** Answered later, whatever state the run is in, by one of `answers` (matched by id when `match` is given). */
  answeredAnyTime: ReadonlyArray<{ effect: EffectType; answers: readonly LoopEventType[]; match?: AnswerMatch }>;
  /** Effects that, once executed, leave the named earlier effects without an answer (the work was thrown away). */
  discards: ReadonlyArray<{ effect: EffectType; discarded: readonly EffectType[] }>;
}

/** The loop chart's kinds of effect, for the type checker, read from the same declaration as the table. */
type Declared = typeof EFFECT_DECLARATIONS;
/** Effects executed and never answered. */
export type FireAndForgetEffectType = Declared['fireAndForget'][number];
/** Effects answered later, in whatever state the run is. */
export type AnsweredAnyTimeEffectType = Declared['answeredAnyTime'][number]['effect'];
/**
 * Effects some waiting state awaits: every effect the root does not declare (`test/unit/effect-protocol.test.ts`
 * holds this equal to the table's `awaited` rows, which come from the states' `meta.awaits`).
 */
export type AwaitedEffectType = Exclude<EffectType, FireAndForgetEffectType | AnsweredAnyTimeEffectType>;
/** Effects whose answer some event brings: the ones a driver executes and must answer, by a fallback if need be. */
export type AnsweredEffectType = Exclude<EffectType, FireAndForgetEffectType>;

export type EffectKind = 'awaited' | 'answered_any_time' | 'fire_and_forget';

/** One row of the protocol table. */
export interface EffectProtocolEntry {
  effect: EffectType;
  kind: EffectKind;
  /** The events that answer it (empty for fire-and-forget). */
  answers: LoopEventType[];
  /** The states (as `a.b` paths) where the machine rests waiting for it. */
  waitingIn: string[];
  match?: AnswerMatch;
  /** Earlier effects this one leaves unanswered. */
  discards: EffectType[];
}

type MetaNode = {
  path: string[];
  meta?: Record<string, unknown>;
  type: string;
  states: Record<string, MetaNode>;
  always?: unknown[];
  transitions: Map<string, unknown[]>;
  parent?: MetaNode;
};

function* nodesOf(node: MetaNode): Generator<MetaNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* nodesOf(child);
}

function deriveWaitingStates(root: MetaNode): Readonly<Record<string, AwaitDeclaration>> {
  const waiting: Record<string, AwaitDeclaration> = {};
  for (const node of nodesOf(root)) {
    const awaits = node.meta?.['awaits'] as AwaitDeclaration | undefined;
    if (awaits) waiting[node.path.join('.')] = Object.freeze({ effects: [...awaits.effects], answers: [...awaits.answers] });
  }
  return Object.freeze(waiting);
}

function deriveProtocol(root: MetaNode, waiting: Readonly<Record<string, AwaitDeclaration>>): Readonly<Partial<Record<EffectType, EffectProtocolEntry>>> {
  const declared = root.meta?.['effects'] as EffectDeclarations;
  const table: Partial<Record<EffectType, EffectProtocolEntry>> = {};
  const row = (effect: EffectType, kind: EffectKind): EffectProtocolEntry =>
    (table[effect] ??= { effect, kind, answers: [], waitingIn: [], discards: [] });
  for (const [path, { effects, answers }] of Object.entries(waiting)) {
    for (const effect of effects) {
      const entry = row(effect, 'awaited');
      entry.waitingIn.push(path);
      for (const answer of answers) if (!entry.answers.includes(answer)) entry.answers.push(answer);
    }
  }
  for (const effect of declared.fireAndForget) row(effect, 'fire_and_forget');
  for (const { effect, answers, match } of declared.answeredAnyTime) {
    const entry = row(effect, 'answered_any_time');
    entry.answers.push(...answers);
    if (match) entry.match = match;
  }
  for (const { effect, discarded } of declared.discards) row(effect, 'fire_and_forget').discards.push(...discarded);
  for (const entry of Object.values(table)) Object.freeze(entry);
  return Object.freeze(table);
}

/** The protocol a chart declares: its waiting states and one row per effect type it names. */
export function deriveEffectProtocol(machine: { root: unknown }): {
  waitingStates: Readonly<Record<string, AwaitDeclaration>>;
  effects: Readonly<Record<EffectType, EffectProtocolEntry>>;
} {
  const root = machine.root as MetaNode;
  const waitingStates = deriveWaitingStates(root);
  return { waitingStates, effects: deriveProtocol(root, waitingStates) as Readonly<Record<EffectType, EffectProtocolEntry>> };
}

const derived = deriveEffectProtocol(loopMachine);

/** Every waiting state (by `a.b` path) and what it awaits, as the chart declares it. */
export const WAITING_STATES = derived.waitingStates;

/** The protocol table, one row per effect type (a test checks that none is missing). */
export const EFFECT_PROTOCOL = derived.effects;

/**
 * What is wrong with a chart's protocol declarations (nothing, for the loop machine: a test holds it): a state
 * that rests (atomic, not final, no eventless transition) without `meta.awaits`, a declaration on a state that
 * never rests, a declared answer the state does not accept (itself or through an ancestor), an effect declared
 * with two kinds (awaited by a state and fire-and-forget, say).
 */
export function protocolProblems(machine: { root: unknown }): string[] {
  const problems: string[] = [];
  for (const node of nodesOf(machine.root as MetaNode)) {
    const path = node.path.join('.');
    const rests = node.type === 'atomic' && (node.always ?? []).length === 0;
    const awaits = node.meta?.['awaits'] as AwaitDeclaration | undefined;
    if (rests && !awaits) problems.push(`${path} waits but declares no meta.awaits`);
    if (node === machine.root) problems.push(...rootDeclarationProblems(node));
    if (!rests && awaits) problems.push(`${path} declares meta.awaits but never rests`);
    for (const answer of awaits?.answers ?? []) {
      let accepted = false;
      for (let n: MetaNode | undefined = node; n && !accepted; n = n.parent) accepted = n.transitions.has(answer);
      if (!accepted) problems.push(`${path} does not accept its answer ${answer}`);
    }
  }
  return problems;
}

/** An effect the root declares that a state also awaits, or that the root declares twice, has no one kind. */
function rootDeclarationProblems(root: MetaNode): string[] {
  const declared = root.meta?.['effects'] as EffectDeclarations | undefined;
  if (!declared) return ['the root declares no meta.effects'];
  const awaited = new Set(Object.values(deriveWaitingStates(root)).flatMap((a) => a.effects));
  const seen = new Set<EffectType>();
  const problems: string[] = [];
  for (const effect of [...declared.fireAndForget, ...declared.answeredAnyTime.map((a) => a.effect)]) {
    if (awaited.has(effect) || seen.has(effect)) problems.push(`${effect} is declared with more than one kind`);
    seen.add(effect);
  }
  return problems;
}

/**
 * The effect types of `src/data/effects.ts` that a chart gives no kind: awaited by no state, and neither answered
 * any time nor fire-and-forget (none, for the loop machine: a test holds it).
 */
export function undeclaredEffectTypes(machine: { root: unknown }): EffectType[] {
  const { effects } = deriveEffectProtocol(machine);
  return EFFECT_TYPES.filter((type) => effects[type] === undefined);
}

/** A state value as a path: `sampling`, `{ exitLadder: 'stopHooks' }` → `exitLadder.stopHooks`. */
export function statePath(value: LoopState['value']): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value)[0] ?? ['', ''];
  return `${key}.${statePath(child as LoopState['value'])}`;
}

/** The effect types a state at rest waits on (none for a state that is not a waiting state). */
export function awaitedEffectTypes(value: LoopState['value'] | string): EffectType[] {
  return WAITING_STATES[typeof value === 'string' ? value : statePath(value)]?.effects ?? [];
}

function atPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) current = (current as Record<string, unknown> | null | undefined)?.[key];
  return current;
}

/** Does `event` answer `effect` (per the table: one of its answers, naming this effect when the row matches by id)? */
export function answersEffect(effect: Effect, event: LoopEvent): boolean {
  const entry = EFFECT_PROTOCOL[effect.type];
  if (!entry.answers.includes(event.type)) return false;
  const match = entry.match;
  if (!match || !(match.eventField in event)) return true;
  return (event as unknown as Record<string, unknown>)[match.eventField] === atPath(effect, match.effectPath);
}

/** Whether an effect is executed without ever being answered. */
export function isFireAndForget(type: EffectType): boolean {
  return EFFECT_PROTOCOL[type].kind === 'fire_and_forget';
}

/** Whether some waiting state awaits `effect` (per the table), narrowed to the awaited effects' types. */
export function isAwaitedEffect(effect: Effect): effect is EffectOf<AwaitedEffectType> {
  return EFFECT_PROTOCOL[effect.type].kind === 'awaited';
}
