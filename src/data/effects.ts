/**
 * The effect catalogue: everything the pure reducer asks the outside world to do. Effects are JSON data with a
 * stable id (`<runId>:e<n>`, derived from the run, never random). The drivers (`src/drivers`) execute them
 * and answer with events (`./events.ts`). Which events answer which effect, and which effects get no answer (fire
 * and forget), the chart declares: `src/machine/effect-protocol.ts` is the table; the notes below only describe.
 *
 * Messages inside effects are shared by reference with the state (never copied): treat them as read-only.
 */
import type { Message, ToolUseBlock, Usage } from '../messages/types.ts';
import type { Terminal } from './outcomes.ts';

/** The context layers, in the order a turn runs them. */
export const CONTEXT_LAYERS = ['tool_result_budget', 'snip', 'microcompact', 'context_collapse'] as const;

export type ContextLayer = (typeof CONTEXT_LAYERS)[number];

export interface ModelRequest {
  model: string;
  max_tokens: number;
  /** The working history, in engine form; the model adapter turns it into API messages. */
  messages: Message[];
  /**
   * The run's `historyRevision` when the request was made. Between two requests of one run with the same
   * revision, the history only grew: the older request's `messages` are the first messages of the newer's (the
   * same objects, unless the state went through a JSON round trip in between). Absent (a request built
   * elsewhere): no such promise.
   */
  historyRevision?: number;
  system: string[];
  /** Names of the tools offered to the model (definitions live with the interpreter). */
  tools: string[];
  /** `remaining` only after a compaction (docs/loop.md §6). */
  task_budget?: { total: number; remaining?: number };
}

export interface ToolBatch {
  /** True: the calls run concurrently (all concurrency-safe). False: a single unsafe call. */
  concurrent: boolean;
  toolUses: ToolUseBlock[];
}

interface EffectBase {
  /** Stable correlation id: `<runId>:e<n>`. */
  id: string;
}

export type Effect = EffectBase &
  (
    | { type: 'emit'; message: Message }
    | { type: 'request_start' }
    | { type: 'call_model'; request: ModelRequest; querySource: string; modelCall: number }
    | { type: 'context_layer'; layer: ContextLayer; messages: Message[]; tokenCount: number }
    | { type: 'autocompact'; messages: Message[]; tokenCount: number }
    | { type: 'reactive_compact'; messages: Message[]; trigger: 'prompt_too_long' | 'media_size' }
    | { type: 'collapse_drain'; messages: Message[] }
    /** Non-streaming execution: run these batches in order (docs/loop.md §7.3). */
    | { type: 'run_tools'; batches: ToolBatch[] }
    /** Streaming execution: hand one tool_use to the executor as soon as it arrived (docs/loop.md §7.4). */
    | { type: 'enqueue_tool'; toolUse: ToolUseBlock; concurrencySafe: boolean }
    /** Streaming execution: the model finished; report the remaining results, then `tools_finished`. */
    | { type: 'finish_tools' }
    /** Streaming execution: throw the executor away (fallbacks); queued and running tools get no real result. */
    | { type: 'discard_tools'; reason: string }
    | { type: 'run_stop_hooks'; messages: Message[]; stopHookActive: boolean }
    /** Fire and forget. */
    | { type: 'run_stop_failure_hooks'; error: Message }
    /** Fire and forget. */
    | { type: 'run_post_sampling_hooks'; messages: Message[] }
    | { type: 'collect_attachments'; messages: Message[] }
    /** Answered later, at any time, by `tool_use_summary_ready`. */
    | { type: 'start_tool_use_summary'; summaryId: string; toolUseIds: string[] }
    /** The run is over; nothing follows. */
    | { type: 'terminated'; terminal: Terminal; usage: Usage | null }
  );

export type EffectType = Effect['type'];
export type EffectOf<T extends EffectType> = Extract<Effect, { type: T }>;

/** Every effect type, for docs and exhaustiveness checks (the type below fails to compile if one is missing). */
export const EFFECT_TYPES = [
  'emit',
  'request_start',
  'call_model',
  'context_layer',
  'autocompact',
  'reactive_compact',
  'collapse_drain',
  'run_tools',
  'enqueue_tool',
  'finish_tools',
  'discard_tools',
  'run_stop_hooks',
  'run_stop_failure_hooks',
  'run_post_sampling_hooks',
  'collect_attachments',
  'start_tool_use_summary',
  'terminated',
] as const satisfies readonly EffectType[];

type UnlistedEffect = Exclude<EffectType, (typeof EFFECT_TYPES)[number]>;
export const EFFECT_TYPES_ARE_COMPLETE: UnlistedEffect extends never ? true : never = true;
