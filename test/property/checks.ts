/**
 * Pure checkers over a `Recording`, shared by the death-spiral properties: the pairing checker (docs/loop.md §1, §9.9),
 * segmenting a run by its Continue transitions, and the model-call bounds of docs/loop.md §9.10 (see docs/testing.md).
 */
import type { LoopConfig } from '../../src/config/config.ts';
import type { Message } from '../../src/messages/types.ts';
import type { Effect } from '../../src/data/effects.ts';
import type { Continue, ContinueReason } from '../../src/data/outcomes.ts';
import type { LoopParams } from '../../src/data/state.ts';
import type { Recording } from './fake-interpreter.ts';

/** The ids of every tool_use the assistant messages of `messages` hold, in order. */
export function toolUseIds(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => (m.type === 'assistant' ? m.message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []));
}

/**
 * Returns the pairing violations of a history as the model would see it: only user and assistant messages,
 * assistant API-error messages skipped; consecutive assistant messages form one turn, consecutive user messages
 * the next user turn. Every tool_use must be answered by exactly one tool_result in the next user turn, and
 * every tool_result must answer a tool_use of the turn right before it. Empty = paired.
 */
export function pairingViolations(messages: readonly Message[]): string[] {
  const visible = messages.filter((m) => m.type === 'user' || (m.type === 'assistant' && m.apiError === undefined));
  const problems: string[] = [];
  let pending: string[] = [];
  let i = 0;
  while (i < visible.length) {
    const role = visible[i].type;
    const turn: Message[] = [];
    while (i < visible.length && visible[i].type === role) turn.push(visible[i++]);
    if (role === 'assistant') {
      if (pending.length > 0) problems.push(`tool_use ${pending.join(', ')} not answered before the next assistant turn`);
      pending = turn.flatMap((m) => (m.type === 'assistant' ? m.message.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : []));
      continue;
    }
    const results = turn.flatMap((m) =>
      m.type === 'user' && typeof m.message.content !== 'string'
        ? m.message.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)
        : [],
    );
    for (const id of pending) {
      const count = results.filter((r) => r === id).length;
      if (count !== 1) problems.push(`tool_use ${id} answered ${count} times in the next user turn`);
    }
    for (const id of results) if (!pending.includes(id)) problems.push(`tool_result ${id} answers no tool_use of the previous turn`);
    pending = [];
  }
  if (pending.length > 0) problems.push(`tool_use ${pending.join(', ')} sent without any result`);
  return problems;
}

export interface Iteration {
  /** The Continue that started this iteration (null for the first). */
  startedBy: Continue | null;
  effects: Effect[];
}

/** The run's effects cut at every `request_start`, each iteration labelled with the Continue that started it. */
export function iterations(recording: Recording): Iteration[] {
  const result: Iteration[] = [];
  for (const effect of recording.effects) {
    if (effect.type === 'request_start') {
      const startedBy = result.length === 0 ? null : recording.continues[result.length - 1].transition;
      result.push({ startedBy, effects: [] });
    }
    result[result.length - 1]?.effects.push(effect);
  }
  return result;
}

/**
 * Splits the run's effects into stretches: a new stretch begins at each iteration started by a Continue whose
 * reason is one of `delimiters` (e.g. `next_turn`).
 */
export function effectSegments(recording: Recording, delimiters: readonly ContinueReason[]): Effect[][] {
  const segments: Effect[][] = [];
  for (const iteration of iterations(recording)) {
    if (segments.length === 0 || (iteration.startedBy && delimiters.includes(iteration.startedBy.reason))) segments.push([]);
    segments[segments.length - 1].push(...iteration.effects);
  }
  return segments;
}

/** The Continue reasons of a run cut the same way: each stretch lists the Continues inside it. */
export function continueSegments(recording: Recording, delimiters: readonly ContinueReason[]): ContinueReason[][] {
  const segments: ContinueReason[][] = [[]];
  for (const { transition } of recording.continues) {
    if (delimiters.includes(transition.reason)) segments.push([]);
    else segments[segments.length - 1].push(transition.reason);
  }
  return segments;
}

/** A one-line summary of a run for failure messages (the shrunk counterexample reads as a story). */
export function describeRun(recording: Recording): string {
  const reasons = recording.continues.map((c) => c.transition.reason).join(' → ');
  return `calls=${recording.modelRequests.length} continues=[${reasons}] terminal=${JSON.stringify(recording.terminal)}`;
}

/** The Continue reasons of a run, in order. */
export const continueReasons = (recording: Recording): ContinueReason[] => recording.continues.map((c) => c.transition.reason);

export const countOf = <T>(list: readonly T[], predicate: (item: T) => boolean): number => list.filter(predicate).length;

/**
 * The loose bound of docs/loop.md §9.10: a run makes at most `limits.maxModelCalls` model calls, whatever the environment.
 */
export function modelCallBound(config: LoopConfig): number {
  return config.limits.maxModelCalls;
}

/** Token-budget continuations possible in one run (0 when no auto-continue applies); see docs/testing.md. */
export function tokenBudgetContinuationBound(config: LoopConfig, params: LoopParams): number {
  const budget = params.tokenBudget;
  if (!config.features.tokenBudget || budget === undefined || budget <= 0) return 0;
  if ((params.querySource ?? 'sdk').startsWith('agent:')) return 0;
  return 4 + 2 * Math.ceil((config.tokenBudgetCompletionRatio * budget) / config.tokenBudgetDiminishingDelta);
}

/**
 * The tighter bound of docs/testing.md, in terms of maxTurns and the other limits. Finite only with `maxTurns`
 * set and context collapse off (a collapse store that always commits can alternate drain and escalate forever;
 * only `maxModelCalls` stops that). Returns null when it does not apply.
 */
export function tightModelCallBound(config: LoopConfig, params: LoopParams): number | null {
  if (params.maxTurns === undefined || config.features.contextCollapse) return null;
  const nextTurns = params.maxTurns - 1;
  const blocking = config.limits.maxStopHookBlocking;
  const budget = tokenBudgetContinuationBound(config, params);
  const recoveries = config.limits.maxOutputTokensRecovery * (1 + nextTurns + blocking + budget);
  const reactive = config.features.reactiveCompact ? 1 + nextTurns + budget : 0;
  const others = nextTurns + blocking + budget + recoveries + reactive;
  // Every escalation needs the state's override empty, and only a non-escalation Continue empties it. A caller's
  // maxOutputTokensOverride seeds the first iteration only (docs/loop.md §2), so it rules out the first escalation
  // (before any other Continue), not the later ones: recover, escalate, recover, escalate... (seed 1824218645).
  const escalations = config.features.maxOutputTokensCap ? others + (params.maxOutputTokensOverride === undefined ? 1 : 0) : 0;
  const fallback = params.fallbackModel !== undefined && params.fallbackModel !== config.model ? 1 : 0;
  return Math.min(config.limits.maxModelCalls, others + escalations + 1 + fallback);
}
