/**
 * What the viewer shows of one step (a `Frame`): the active state, the transitions just taken, the new effects,
 * the messages emitted, the pending effects and the counters, built from the state `step()` reached. The fold
 * itself is `src/viz/viewer/session-model.ts` (in the page and in Node alike).
 *
 * Text from a session (model output, tool results) is carried as plain strings; the page only ever assigns it to
 * `textContent`. Pure.
 */
import type { LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import { leafOf } from './graph.ts';

/** The longest text kept per message or effect summary (the page is for reading, not archiving). */
export const MAX_TEXT = 4000;

export interface ViewMessage {
  uuid: string;
  /** `user`, `assistant`, `system`, `attachment`, `tombstone`, `tool_use_summary`. */
  type: string;
  /** A short tag: `tool_use`, `tool_result`, `meta`, `api_error: prompt_too_long`, a system subtype... */
  tag: string;
  text: string;
}

export interface ViewEffect {
  id: string;
  type: string;
  summary: string;
}

export interface Counters {
  turnCount: number;
  modelCalls: number;
  maxOutputTokensRecoveryCount: number;
  autocompactFailures: number;
  tokens: number;
  autocompactThreshold: number;
  blockingLimit: number;
  effectiveWindow: number;
  model: string;
}

export interface Frame {
  /** Event index in the log (1-based as logged); 0 for the initial state. */
  index: number;
  event: { type: string; summary: string } | null;
  /** The active leaf state (chart id). */
  state: string;
  status: 'active' | 'done';
  /** Chart transition ids taken by this step, in order. */
  transitions: string[];
  effects: ViewEffect[];
  emitted: ViewMessage[];
  pending: ViewEffect[];
  counters: Counters;
  continueReason: string | null;
  terminal: string | null;
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} more characters)` : text;
}

function blockText(block: { type: string; [key: string]: unknown }): string {
  switch (block.type) {
    case 'text':
      return String(block['text'] ?? '');
    case 'thinking':
      return `(thinking) ${String(block['thinking'] ?? '')}`;
    case 'tool_use':
      return `${String(block['name'])}(${JSON.stringify(block['input'] ?? {})}) [${String(block['id'])}]`;
    case 'tool_result': {
      const content = block['content'];
      const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => blockText(c)).join('\n') : '';
      return `${block['is_error'] ? '(error) ' : ''}${text} [${String(block['tool_use_id'])}]`;
    }
    default:
      return `(${block.type})`;
  }
}

/** A message as the page shows it: a tag and plain text. */
export function viewMessage(message: Message): ViewMessage {
  const base = { uuid: message.uuid, type: message.type };
  switch (message.type) {
    case 'user':
    case 'assistant': {
      const content = message.message.content;
      const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Array<{ type: string }>);
      const kinds = [...new Set(blocks.map((b) => b.type))].filter((k) => k !== 'text');
      const apiError = message.type === 'assistant' && message.apiError ? `api_error: ${message.apiError.kind}` : '';
      const meta = message.type === 'user' && message.isMeta ? 'meta' : '';
      const tag = [apiError, meta, ...kinds].filter(Boolean).join(', ');
      return { ...base, tag, text: clip(blocks.map(blockText).join('\n')) };
    }
    case 'system':
      return { ...base, tag: message.subtype, text: clip(message.content) };
    case 'attachment':
      return { ...base, tag: message.attachment.type, text: clip(JSON.stringify(message.attachment)) };
    case 'tombstone':
      return { ...base, tag: 'tombstone', text: `removes ${message.targetUuid}` };
    case 'tool_use_summary':
      return { ...base, tag: 'summary', text: clip(message.summary) };
    default:
      return { ...base, tag: '', text: clip(JSON.stringify(message)) };
  }
}

function effectSummary(effect: Effect): string {
  switch (effect.type) {
    case 'emit':
      return `${effect.message.type} ${effect.message.uuid}`;
    case 'call_model':
      return `model ${effect.request.model}, max_tokens ${effect.request.max_tokens}, ${effect.request.messages.length} messages (call ${effect.modelCall})`;
    case 'context_layer':
      return `${effect.layer}, ${effect.tokenCount} tokens`;
    case 'autocompact':
      return `${effect.tokenCount} tokens`;
    case 'reactive_compact':
      return `trigger ${effect.trigger}`;
    case 'run_tools':
      return effect.batches.map((b) => b.toolUses.map((t) => `${t.name}[${t.id}]`).join(b.concurrent ? ' ∥ ' : '')).join(' → ');
    case 'enqueue_tool':
      return `${effect.toolUse.name}[${effect.toolUse.id}]`;
    case 'discard_tools':
      return effect.reason;
    case 'start_tool_use_summary':
      return effect.toolUseIds.join(', ');
    case 'terminated':
      return effect.terminal.reason;
    default:
      return '';
  }
}

const viewEffect = (effect: Effect): ViewEffect => ({ id: effect.id, type: effect.type, summary: clip(effectSummary(effect)) });

/** A one-line description of an event (its text, if any, stays plain text). */
export function eventSummary(event: LoopEvent): string {
  switch (event.type) {
    case 'model_message':
      return viewMessage(event.message).text.slice(0, 200);
    case 'tool_result':
      return `${event.toolUseId}: ${viewMessage(event.message).text.slice(0, 200)}`;
    case 'model_error':
      return `${event.error.kind}: ${event.error.message}`;
    case 'abort':
      return event.reason;
    case 'stop_hooks_result':
      return event.preventContinuation ? 'prevent continuation' : `${event.blockingErrors.length} blocking error(s)`;
    case 'context_layer_result':
      return `${event.layer}, freed ${event.tokensFreed}`;
    case 'autocompact_result':
    case 'reactive_compact_result':
      return event.ok ? 'ok' : `failed${event.error ? `: ${event.error}` : ''}`;
    case 'collapse_drain_result':
      return `committed ${event.committed}`;
    case 'attachments_collected':
      return `${event.attachments.length} attachment(s)`;
    case 'model_done':
      return event.usage ? `in ${event.usage.input_tokens}, out ${event.usage.output_tokens}` : '';
    default:
      return '';
  }
}

function countersOf(state: LoopState, config: LoopConfig): Counters {
  const c = state.context;
  const thresholds = contextThresholds(c.currentModel, config);
  return {
    turnCount: c.turnCount,
    modelCalls: c.modelCalls,
    maxOutputTokensRecoveryCount: c.maxOutputTokensRecoveryCount,
    autocompactFailures: c.autoCompactTracking?.consecutiveFailures ?? 0,
    tokens: Math.max(0, c.tokens.reported + c.tokens.estimatedSince - c.iter.tokensFreed),
    autocompactThreshold: thresholds.autocompact,
    blockingLimit: thresholds.blocking,
    effectiveWindow: thresholds.effectiveWindow,
    model: c.currentModel,
  };
}

export function frameOf(index: number, event: LoopEvent | null, state: LoopState, effects: Effect[], transitions: string[], pending: Effect[], config: LoopConfig): Frame {
  return {
    index,
    event: event ? { type: event.type, summary: clip(eventSummary(event)) } : null,
    state: leafOf(state.value),
    status: state.status,
    transitions,
    effects: effects.map(viewEffect),
    emitted: effects.flatMap((e) => (e.type === 'emit' ? [viewMessage(e.message)] : [])),
    pending: pending.map(viewEffect),
    counters: countersOf(state, config),
    continueReason: state.context.transition?.reason ?? null,
    terminal: state.status === 'done' ? (state.context.terminal?.reason ?? leafOf(state.value)) : null,
  };
}
