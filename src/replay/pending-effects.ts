/**
 * What a stopped run was waiting for: the effects to re-execute so that it can go on (resume).
 *
 * The reducer rests only in states that wait for an answer; the effect that asked for that answer was queued by
 * an earlier step. `PendingEffectTracker` remembers the last effect of each awaited type while a log is folded,
 * so the effect re-executed on resume is the machine's own (same request, same id), never rebuilt by hand.
 *
 * Invariants:
 * - A half-received model reply is forgotten first with a `model_stream_fallback` event (the reducer's own way to
 *   drop an attempt: tombstones for what was shown), then the same `call_model` runs again.
 * - Tools that already answered are not run again: only the unanswered tool_uses of the iteration are re-run
 *   (non-streaming batches; the streaming executor of the crashed process is gone).
 * - A finished run has nothing pending.
 */
import { awaitedEffectTypes as awaitedBy } from '../machine/effect-protocol.ts';
import type { Effect, EffectType } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopState } from '../data/state.ts';
import { partitionToolCalls } from '../rules/tool-batching.ts';
import { stateValueString } from './stable-hash.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** The effect types a resting state waits on, by state value (as the chart declares it: `meta.awaits`). */
export function awaitedEffectTypes(value: string): EffectType[] {
  return awaitedBy(value);
}

export interface PendingWork {
  /** Events to feed before re-executing (e.g. forget a half-received reply). */
  prelude: LoopEvent[];
  /** Effects to re-execute, in order. */
  effects: Effect[];
}

export class PendingEffectTracker {
  private readonly last = new Map<EffectType, Effect>();

  observe(effects: readonly Effect[]): void {
    for (const effect of effects) this.last.set(effect.type, effect);
  }

  /** The effects whose answers `state` is waiting for, as the machine queued them (for time travel). */
  awaitedBy(state: LoopState): Effect[] {
    if (state.status === 'done') return [];
    return awaitedEffectTypes(stateValueString(state.value)).flatMap((type) => {
      const effect = this.last.get(type);
      return effect ? [effect] : [];
    });
  }

  /** What `state` (the last folded state) waits for. */
  pendingFor(state: LoopState): PendingWork {
    if (state.status === 'done') return { prelude: [], effects: [] };
    const value = stateValueString(state.value);
    const awaited = awaitedEffectTypes(value);
    const iter = state.context.iter;
    // Waiting on tools: only the unanswered tool_uses run again, as one non-streaming run.
    if (awaited.includes('run_tools')) {
      const answered = new Set(iter.answeredToolUseIds);
      const open = iter.toolUses.filter((toolUse) => !answered.has(toolUse.id));
      const id = `${state.context.runId}:resume${state.context.seq}`;
      return { prelude: [], effects: [{ id, type: 'run_tools', batches: partitionToolCalls(open, iter.concurrencySafe) }] };
    }
    const wanted = awaited
      .map((type) => this.last.get(type))
      .filter((effect): effect is Effect => effect !== undefined);
    if (wanted.length === 0) throw new TurnloopError('NOTHING_TO_RESUME', `cannot resume: nothing known that the state '${value}' waits for`);
    const halfReceived = awaited.includes('call_model') && (iter.assistantMessages.length > 0 || iter.streamingToolsStarted || iter.toolResults.length > 0);
    return { prelude: halfReceived ? [{ type: 'model_stream_fallback' }] : [], effects: wanted.slice(-1) };
  }
}
