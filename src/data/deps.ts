/**
 * The interpreter's injected dependencies: everything with I/O, time or randomness. Production defaults live next
 * to each implementation; tests replace them. Nothing here is used by `src/reducer` or `src/machine`.
 */
import type { PromptCachingConfig, RetryPolicy } from '../config/config.ts';
import type { AssistantMessage, Message, UserMessage } from '../messages/types.ts';
import type { CompactionInput, ContextLayerInput, ContextLayerOutcome, IdGenerator } from './context-layers.ts';
import type { ModelRequest } from './effects.ts';
import type { ThinkingParam } from './state.ts';
import type { EffortLevel } from '../config/model-effort.ts';
import type { EventOf, LoopEvent, MessageEdit } from './events.ts';

/** Time, injectable so that backoff delays and idle gaps run instantly in tests. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export type { IdGenerator, ContextLayerOutcome, ContextLayerInput, CompactionInput };

/** A tool as the model sees it. */
export interface ToolDefinitionForModel {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** What a model call yields: loop events for the reducer, and raw stream events passed straight to the consumer. */
export type ModelStreamItem =
  | { kind: 'event'; event: EventOf<'model_message' | 'model_done' | 'model_overloaded' | 'model_stream_fallback' | 'model_error'> }
  | { kind: 'stream_event'; event: unknown };

export interface ModelCallOptions {
  signal: AbortSignal;
  querySource: string;
  /** For a child run (subagent): the path of tool_use ids from the root run to the call that started it. */
  agentRun?: readonly string[];
  /** When set, repeated overload answers end in `model_overloaded` instead of being retried as errors. */
  fallbackModel?: string;
  tools: ToolDefinitionForModel[];
  retry: RetryPolicy;
  clock: Clock;
  newId: IdGenerator;
  /** The run's `thinking` param. */
  thinking?: ThinkingParam;
  /** The run's `effort` param: `output_config.effort`. */
  effort?: EffortLevel;
  /** Where to put `cache_control` breakpoints; absent: none. */
  promptCaching?: PromptCachingConfig;
  /**
   * One object per run, compared by identity only. `ModelRequest.historyRevision` promises a grown history only
   * between requests of the same run (another run may have the same run id and revision), so a caller that
   * remembers its last conversion trusts the revision only when this is the same object too.
   */
  runToken?: object;
}

/**
 * Calls the model once (with its own retries) and yields, in order: `model_message` per finished block,
 * then exactly one of `model_done`, `model_overloaded`, `model_error`. `model_stream_fallback` may come before
 * the messages of a retried attempt. Aborting the signal ends the iteration promptly.
 */
export type ModelCaller = (request: ModelRequest, options: ModelCallOptions) => AsyncIterable<ModelStreamItem>;

/**
 * Runs one context layer. A layer that decides without I/O may answer synchronously: the interpreter then feeds
 * its result at once instead of through the event channel (same event, same order relative to its own step).
 */
export type ContextLayerRunner = (input: ContextLayerInput) => Promise<ContextLayerOutcome> | ContextLayerOutcome;

export type CompactionOutcome =
  | { ok: true; postCompactMessages: Message[]; preCompactTokens: number; postCompactTokens?: number }
  | { ok: false; error: string };

export type Compactor = (input: CompactionInput) => Promise<CompactionOutcome>;

export type CollapseDrainer = (input: { messages: Message[] }) => Promise<{ committed: number; edits: MessageEdit[] }>;

export interface StopHookInput {
  messages: Message[];
  stopHookActive: boolean;
  signal: AbortSignal;
}
export interface StopHookResult {
  blockingError?: string;
  preventContinuation?: boolean;
  stopReason?: string;
}
export type StopHook = (input: StopHookInput) => Promise<StopHookResult> | StopHookResult;
export type StopFailureHook = (input: { error: AssistantMessage }) => Promise<void> | void;
export type PostSamplingHook = (input: { messages: Message[] }) => Promise<void> | void;

/** Extra messages to append after tool results (queued commands, memory, skills). */
export type AttachmentCollector = (input: { messages: Message[]; newId: IdGenerator }) => Promise<Message[]> | Message[];

export type ToolUseSummarizer = (input: { toolUseIds: string[]; messages: Message[] }) => Promise<string>;

/** A tool_result event as the tool runtime produces it. */
export type ToolResultEvent = EventOf<'tool_result'>;

export type { LoopEvent, UserMessage };
