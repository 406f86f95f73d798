/**
 * The outside world of a `drive()` run: answers each effect of the pure reducer with the events a real
 * interpreter would send, taken from a `Script`. Deterministic: the same script answers the same effects with
 * the same events, in the same order.
 */
import type { AssistantMessage, Message, ToolUseBlock } from '../../src/messages/types.ts';
import type { Effect, EffectOf, EffectType } from '../../src/data/effects.ts';
import type { EventOf, LoopEvent } from '../../src/data/events.ts';
import { autocompactResult, modelDone, modelMessage, reactiveCompactResult, stopHooksResult, toolResultFor } from './builders.ts';
import { pick, type LayerAnswer, type ModelReply, type Script, type StopHookAnswer, type ToolAnswer } from './script.ts';

export class ScriptedWorld {
  private readonly counts = new Map<string, number>();
  /** Tool uses handed to the streaming executor and not yet answered. */
  private executorQueue: ToolUseBlock[] = [];
  private aborted = false;

  constructor(private readonly script: Script) {}

  /** The events answering `effects`, in order; fire-and-forget effects yield none. */
  answer(effects: readonly Effect[]): LoopEvent[] {
    return effects.flatMap((effect) => this.answerOne(effect));
  }

  private answerOne(effect: Effect): LoopEvent[] {
    const n = (this.counts.get(effect.type) ?? 0) + 1;
    this.counts.set(effect.type, n);
    const abortPoint = this.script.abort;
    const abortsHere = !this.aborted && abortPoint?.on === effect.type && (abortPoint.nth ?? 1) === n;
    if (abortsHere) this.aborted = true;
    const abortEvent: LoopEvent = { type: 'abort', reason: abortPoint?.reason ?? 'user_cancel' };
    const after = abortPoint?.after ?? 0;

    switch (effect.type) {
      case 'call_model':
        return this.answerModelCall(effect, n, abortsHere ? { abort: abortEvent, after } : null);
      case 'enqueue_tool':
        this.executorQueue.push(effect.toolUse);
        return [];
      case 'discard_tools':
        this.executorQueue = [];
        return [];
      case 'run_tools':
        return this.answerTools(effect.batches.flatMap((b) => b.toolUses), abortsHere ? { abort: abortEvent, after } : null);
      case 'finish_tools': {
        const pending = this.executorQueue;
        this.executorQueue = [];
        return this.answerTools(pending, abortsHere ? { abort: abortEvent, after } : null);
      }
      case 'start_tool_use_summary': {
        if (abortsHere) return [abortEvent];
        if (this.script.toolUseSummary === null) return [];
        const summary = this.script.toolUseSummary?.(effect) ?? `Summary of ${effect.toolUseIds.length} tool call(s)`;
        return [{ type: 'tool_use_summary_ready', summaryId: effect.summaryId, summary }];
      }
      case 'run_stop_hooks': {
        // Like the interpreter: an abort stops the hooks; `after` 0 = before any answered, else the answer arrived first.
        if (!abortsHere) return [this.answerRequest(effect, n)];
        const answered = after > 0 ? (this.answerRequest(effect, n) as EventOf<'stop_hooks_result'>) : stopHooksResult();
        return [abortEvent, { ...answered, hookCount: after > 0 ? 1 : 0 }];
      }
      case 'emit':
      case 'request_start':
      case 'run_post_sampling_hooks':
      case 'run_stop_failure_hooks':
      case 'terminated':
        return abortsHere ? [abortEvent] : [];
      default:
        return abortsHere ? [abortEvent] : [this.answerRequest(effect, n)];
    }
  }

  /** Effects that wait for exactly one answer. */
  private answerRequest(
    effect: EffectOf<'context_layer' | 'autocompact' | 'reactive_compact' | 'collapse_drain' | 'run_stop_hooks' | 'collect_attachments'>,
    n: number,
  ): LoopEvent {
    const { script } = this;
    switch (effect.type) {
      case 'context_layer': {
        // Counted per layer: the n-th answer of a layer goes to that layer's n-th request.
        const nth = this.bump(`context_layer:${effect.layer}`);
        const answer = pick(script.contextLayers?.[effect.layer], effect, nth, (): LayerAnswer => ({}));
        return {
          type: 'context_layer_result',
          layer: effect.layer,
          edits: answer.edits ?? [],
          tokensFreed: answer.tokensFreed ?? 0,
          ...(answer.emitted ? { emitted: answer.emitted } : {}),
        };
      }
      case 'autocompact':
        return autocompactResult(pick(script.autocompact, effect, n));
      case 'reactive_compact':
        return reactiveCompactResult(pick(script.reactiveCompact, effect, n));
      case 'collapse_drain': {
        const answer = pick(script.collapseDrain, effect, n);
        return { type: 'collapse_drain_result', committed: answer.committed, edits: answer.edits ?? [] };
      }
      case 'run_stop_hooks': {
        const answer = pick(script.stopHooks, effect, n, (): StopHookAnswer => ({}));
        return stopHooksResult(answer.blockingErrors ?? [], answer.preventContinuation ?? false, answer.stopReason);
      }
      case 'collect_attachments':
        return { type: 'attachments_collected', attachments: pick(script.attachments, effect, n, (): Message[] => []) };
    }
  }

  private answerModelCall(effect: EffectOf<'call_model'>, n: number, abortAt: { abort: LoopEvent; after: number } | null): LoopEvent[] {
    const events: LoopEvent[] = [];
    let call = n;
    // A stream fallback is answered by the next scripted reply within the same call (no new call_model).
    for (;;) {
      const answer: ModelReply = pick(this.script.model, effect, call);
      if (abortAt) {
        const streamed = answer.kind === 'reply' ? answer.messages : (answer.partial ?? []);
        const safe = answer.kind === 'reply' || answer.kind === 'stream_fallback' ? answer.concurrencySafe : undefined;
        return [...streamed.slice(0, abortAt.after).map((m) => messageEvent(m, safe)), abortAt.abort];
      }
      switch (answer.kind) {
        case 'reply':
          return [
            ...events,
            ...answer.messages.map((m) => messageEvent(m, answer.concurrencySafe)),
            modelDone(answer.usage, answer.stopReason),
          ];
        case 'error':
          return [...events, ...(answer.partial ?? []).map((m) => messageEvent(m, undefined)), { type: 'model_error', error: answer.error }];
        case 'overloaded':
          return [...events, ...(answer.partial ?? []).map((m) => messageEvent(m, undefined)), { type: 'model_overloaded', message: answer.message }];
        case 'stream_fallback':
          events.push(...answer.partial.map((m) => messageEvent(m, answer.concurrencySafe)), { type: 'model_stream_fallback' });
          call = this.bump('call_model');
      }
    }
  }

  private answerTools(toolUses: readonly ToolUseBlock[], abortAt: { abort: LoopEvent; after: number } | null): LoopEvent[] {
    const events: LoopEvent[] = [];
    toolUses.forEach((toolUse, i) => {
      if (abortAt && i === abortAt.after) events.push(abortAt.abort);
      const cancelled = this.aborted && (!abortAt || i >= abortAt.after);
      events.push(cancelled ? toolResultFor(toolUse.id, 'Cancelled: the run was aborted.', { isError: true }) : this.toolEvent(toolUse));
    });
    if (abortAt && toolUses.length <= abortAt.after) events.push(abortAt.abort);
    return [...events, { type: 'tools_finished' }];
  }

  private toolEvent(toolUse: ToolUseBlock): LoopEvent {
    const { tools } = this.script;
    const answer: ToolAnswer =
      (typeof tools === 'function' ? tools(toolUse) : tools?.[toolUse.id]) ?? `ok: ${toolUse.name}`;
    return typeof answer === 'string' ? toolResultFor(toolUse.id, answer) : toolResultFor(toolUse.id, answer.content, answer);
  }

  private bump(type: string): number {
    const n = (this.counts.get(type) ?? 0) + 1;
    this.counts.set(type, n);
    return n;
  }
}

function messageEvent(message: AssistantMessage, concurrencySafe: Record<string, boolean> | undefined): LoopEvent {
  const ids = message.message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
  if (ids.length === 0 || !concurrencySafe) return modelMessage(message);
  return modelMessage(message, Object.fromEntries(ids.map((id) => [id, concurrencySafe[id] === true])));
}
