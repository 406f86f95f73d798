/**
 * The script a `drive()` run follows: what the model replies, what tools return, what hooks and compactors say,
 * and where an abort strikes. Everything has a default except the model replies, so a test states only what
 * matters to it. A script is data (plus optional functions of the effect), never a mock with hidden state.
 */
import type { AssistantMessage, Message, ToolUseBlock, Usage } from '../../src/messages/types.ts';
import type { ContextLayer, EffectOf, EffectType } from '../../src/data/effects.ts';
import type { EventOf, MessageEdit } from '../../src/data/events.ts';
import type { CompactOutcome } from './builders.ts';

/** The answer to one `call_model` effect. */
export type ModelReply =
  | { kind: 'reply'; messages: AssistantMessage[]; usage?: Usage; stopReason?: string | null; concurrencySafe?: Record<string, boolean> }
  /** `partial`: blocks that finished before the failure (their tool_uses become orphans). */
  | { kind: 'error'; error: EventOf<'model_error'>['error']; partial?: AssistantMessage[] }
  | { kind: 'overloaded'; message: string; partial?: AssistantMessage[] }
  /** The stream breaks after `partial`; the transport retries without streaming and the NEXT reply answers the same call. */
  | { kind: 'stream_fallback'; partial: AssistantMessage[]; concurrencySafe?: Record<string, boolean> };

export interface ReplyOptions {
  usage?: Usage;
  stopReason?: string | null;
  /** Per tool_use id; ids not listed count as unsafe. */
  concurrencySafe?: Record<string, boolean>;
}

/** A model reply: its finished blocks as messages, then `model_done`. */
export function reply(messages: AssistantMessage | AssistantMessage[], opts: ReplyOptions = {}): ModelReply {
  return { kind: 'reply', messages: Array.isArray(messages) ? messages : [messages], ...opts };
}

export function modelFails(message = 'Internal server error', kind: 'image' | 'other' = 'other', partial: AssistantMessage[] = []): ModelReply {
  return { kind: 'error', error: { kind, message }, partial };
}

/** The model stays overloaded after its retries (the fallback model takes over when one is set). */
export function overloaded(partial: AssistantMessage[] = [], message = 'Overloaded'): ModelReply {
  return { kind: 'overloaded', message, partial };
}

export function streamBreaks(partial: AssistantMessage[], concurrencySafe?: Record<string, boolean>): ModelReply {
  return { kind: 'stream_fallback', partial, ...(concurrencySafe ? { concurrencySafe } : {}) };
}

/** A tool's answer: its text, or the full result. */
export type ToolAnswer =
  | string
  | { content: string; isError?: boolean; extra?: Message[]; preventContinuation?: boolean; contextPatch?: Record<string, unknown> };

export interface StopHookAnswer {
  blockingErrors?: string[];
  preventContinuation?: boolean;
  stopReason?: string;
}

export interface LayerAnswer {
  edits?: MessageEdit[];
  tokensFreed?: number;
  emitted?: Message[];
}

export interface CollapseDrainAnswer {
  committed: number;
  edits?: MessageEdit[];
}

/** A list answered in order (the n-th effect gets the n-th entry), or a function of the effect and its 1-based count. */
export type Scripted<T, E> = readonly T[] | ((effect: E, n: number) => T);

/**
 * Where an abort strikes: instead of answering the `nth` (1-based, default 1) effect of type `on`.
 * `after` lets some of the answer through first: model messages of a reply (`call_model`) or tool results
 * (`run_tools`, `finish_tools`). Tools still pending get a cancelled result, as the executor would make.
 */
export interface AbortPoint {
  on: EffectType;
  nth?: number;
  reason?: string;
  after?: number;
}

export interface Script {
  /** Required: one entry per model call; running out throws `ScriptError`. */
  model: Scripted<ModelReply, EffectOf<'call_model'>>;
  /** By tool_use id, or a function of the tool_use; default `ok: <name>`. */
  tools?: Record<string, ToolAnswer> | ((toolUse: ToolUseBlock) => ToolAnswer);
  /** Default: no opinion (no blocking error, no prevention). */
  stopHooks?: Scripted<StopHookAnswer, EffectOf<'run_stop_hooks'>>;
  /** Default: no edits, nothing freed. */
  contextLayers?: Partial<Record<ContextLayer, Scripted<LayerAnswer, EffectOf<'context_layer'>>>>;
  /** Required when an autocompact is requested (a surprise compaction should fail loudly). */
  autocompact?: Scripted<CompactOutcome, EffectOf<'autocompact'>>;
  reactiveCompact?: Scripted<CompactOutcome, EffectOf<'reactive_compact'>>;
  collapseDrain?: Scripted<CollapseDrainAnswer, EffectOf<'collapse_drain'>>;
  /** Default: none. */
  attachments?: Scripted<Message[], EffectOf<'collect_attachments'>>;
  /** Default: answered at once with `Summary of <n> tool call(s)`; `null` never answers. */
  toolUseSummary?: ((effect: EffectOf<'start_tool_use_summary'>) => string) | null;
  abort?: AbortPoint;
}

/** The script did not say how to answer an effect the loop asked for. */
export class ScriptError extends Error {
  readonly code = 'SCRIPT_EXHAUSTED';
  constructor(
    readonly effectType: EffectType,
    readonly n: number,
  ) {
    super(`the script has no answer for ${effectType} #${n}`);
    this.name = 'ScriptError';
  }
}

/** The n-th scripted answer (1-based), `fallback` when the script has none, or a `ScriptError` without a fallback. */
export function pick<T, E extends { type: EffectType }>(
  scripted: Scripted<T, E> | undefined,
  effect: E,
  n: number,
  fallback?: () => T,
): T {
  if (typeof scripted === 'function') return scripted(effect, n);
  if (scripted && n <= scripted.length) return scripted[n - 1];
  if (fallback) return fallback();
  throw new ScriptError(effect.type, n);
}
