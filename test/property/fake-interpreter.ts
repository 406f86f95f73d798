/**
 * A tiny deterministic fake interpreter for property tests: it starts a run with `initialState(params, config)`
 * and answers every effect from an `Environment`, feeding the answers back through `step()` one event at a time.
 *
 * Invariants: it never uses time or randomness (the same environment gives the same run); it always terminates
 * (an event budget far above every config cap; hitting it is recorded as `boundHit` and fails the properties);
 * an engine that waits for an answer nobody will give is recorded as `stuck`. Options make it deep-freeze every
 * input and pass every state through a JSON round trip, so that purity and serializability are checked by the
 * same code path.
 */
import type { LoopConfig } from '../../src/config/config.ts';
import type { AssistantMessage, AssistantContentBlock, Message, ToolUseBlock, UserMessage } from '../../src/messages/types.ts';
import type { Effect, ModelRequest } from '../../src/data/effects.ts';
import type { LoopEvent, MessageEdit } from '../../src/data/events.ts';
import type { Continue, Terminal } from '../../src/data/outcomes.ts';
import type { LoopContext, LoopState } from '../../src/data/state.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import type { Environment, ToolOutcome } from './arbitraries/environment.ts';
import type { BlockSpec, ModelOutcome, ReplySpec } from './arbitraries/model-outcomes.ts';

/** Far above what any generated config allows (≤ 40 model calls, each with a handful of events). */
export const EVENT_SAFETY_BOUND = 20_000;

export interface StepRecord {
  event: LoopEvent;
  before: LoopState;
  after: LoopState;
  effects: Effect[];
}

export interface ContinueRecord {
  transition: Continue;
  /** Index into `steps` of the step that continued. */
  stepIndex: number;
  before: LoopContext;
  after: LoopContext;
}

export interface Recording {
  initial: LoopState;
  steps: StepRecord[];
  effects: Effect[];
  modelRequests: ModelRequest[];
  /** Every iteration start after the first, with the Continue that started it. */
  continues: ContinueRecord[];
  /** Model messages fed per attempt (reset by call_model and stream fallback), in order. */
  attempts: AssistantMessage[][];
  final: LoopState;
  terminal: Terminal | null;
  /** Events still queued after the terminal, fed anyway: each must yield nothing and change nothing. */
  afterTerminal: Array<{ event: LoopEvent; effects: Effect[]; changed: boolean }>;
  stuck: boolean;
  boundHit: boolean;
}

export interface RunOptions {
  /** Deep-freeze config, params, every state and every event before the reducer sees them. */
  freeze?: boolean;
  /** Pass every state through `JSON.parse(JSON.stringify(state))` before the next step. */
  roundTrip?: boolean;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

type Source = 'model' | 'other';
interface Pending {
  event: LoopEvent;
  source: Source;
}

const cycle = <T>(list: readonly T[], index: number): T => list[index % list.length];

/** The mutable bookkeeping of one fake run (the shell; the reducer stays pure). */
class FakeWorld {
  readonly inbox: Pending[] = [];
  /** Streaming executor: tools handed over and not yet reported. */
  private executor: ToolUseBlock[] = [];
  /** Tool_use ids whose (streaming) result arrives before the reply ends. */
  private readonly early = new Set<string>();
  private readonly counters = { model: 0, tool: 0, order: 0, hooks: 0, auto: 0, reactive: 0, drain: 0, layer: 0, attach: 0 };
  readonly attempts: AssistantMessage[][] = [];
  readonly modelRequests: ModelRequest[] = [];

  constructor(private readonly env: Environment) {}

  /** Answers one effect: queues the events the outside world would send back (exhaustive over effect types). */
  answer(effect: Effect): void {
    switch (effect.type) {
      case 'emit':
      case 'request_start':
      case 'run_stop_failure_hooks':
      case 'run_post_sampling_hooks':
      case 'terminated':
        return;
      case 'call_model':
        this.modelRequests.push(effect.request);
        this.attempts.push([]);
        this.queueModel(cycle(this.env.model, this.counters.model++), effect.modelCall, effect.request.model);
        return;
      case 'context_layer': {
        const answer = this.counters.layer++;
        const edits = this.env.layerEdits && cycle(this.env.layerEdits, answer) ? clearFirstToolResult(effect.messages) : [];
        this.push({ type: 'context_layer_result', layer: effect.layer, edits, tokensFreed: cycle(this.env.layerFreed, answer) });
        return;
      }
      case 'autocompact': {
        const ok = cycle(this.env.autocompact, this.counters.auto++);
        this.push(ok ? { type: 'autocompact_result', ok, postCompactMessages: summary(effect.id), preCompactTokens: effect.tokenCount } : { type: 'autocompact_result', ok, error: 'compaction failed' });
        return;
      }
      case 'reactive_compact': {
        const ok = cycle(this.env.reactiveCompact, this.counters.reactive++);
        this.push(ok ? { type: 'reactive_compact_result', ok, postCompactMessages: summary(effect.id) } : { type: 'reactive_compact_result', ok, error: 'still too long' });
        return;
      }
      case 'collapse_drain':
        this.push({ type: 'collapse_drain_result', committed: cycle(this.env.collapseDrain, this.counters.drain++), edits: [] });
        return;
      case 'run_tools':
        for (const batch of effect.batches) this.queueResults(batch.concurrent ? this.permute(batch.toolUses) : batch.toolUses);
        this.push({ type: 'tools_finished' });
        return;
      case 'enqueue_tool': {
        const outcome = cycle(this.env.tools, this.counters.tool);
        if (this.early.has(effect.toolUse.id) && outcome.kind === 'ok' && !outcome.duplicate) {
          // A fast tool: its result arrives while the model is still streaming.
          this.counters.tool++;
          this.inbox.unshift({ event: toolResult(effect.toolUse, outcome), source: 'other' });
        } else this.executor.push(effect.toolUse);
        return;
      }
      case 'finish_tools':
        this.queueResults(this.permute(this.executor));
        this.executor = [];
        this.push({ type: 'tools_finished' });
        return;
      case 'discard_tools':
        this.executor = [];
        return;
      case 'run_stop_hooks': {
        const answer = cycle(this.env.stopHooks, this.counters.hooks++);
        const blocking = answer === 'block' || answer === 'block_and_prevent' ? ['Please run the tests first.'] : [];
        const prevent = answer === 'prevent' || answer === 'block_and_prevent';
        this.push({ type: 'stop_hooks_result', blockingErrors: blocking, preventContinuation: prevent, ...(prevent ? { stopReason: 'hook said stop' } : {}) });
        return;
      }
      case 'collect_attachments': {
        const queued = cycle(this.env.attachments, this.counters.attach++);
        const attachments: Message[] = queued ? [{ type: 'attachment', uuid: `${effect.id}:att`, attachment: { type: 'queued_command', prompt: 'and also this' } }] : [];
        this.push({ type: 'attachments_collected', attachments });
        return;
      }
      case 'start_tool_use_summary':
        this.push({ type: 'tool_use_summary_ready', summaryId: effect.summaryId, summary: 'Ran some tools.' });
        return;
      default: {
        const unreachable: never = effect;
        throw new Error(`unhandled effect ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** The model stream ends when the run is aborted: its pending events are dropped. */
  dropModelEvents(): void {
    for (let i = this.inbox.length - 1; i >= 0; i--) if (this.inbox[i].source === 'model') this.inbox.splice(i, 1);
  }

  noteFed(event: LoopEvent): void {
    if (event.type === 'model_message') this.attempts[this.attempts.length - 1]?.push(event.message);
    if (event.type === 'model_stream_fallback') this.attempts.push([]);
  }

  private push(event: LoopEvent, source: Source = 'other'): void {
    this.inbox.push({ event, source });
  }

  private permute<T>(items: readonly T[]): T[] {
    const keyed = items.map((item, i) => ({ item, i, key: cycle(this.env.toolOrder, this.counters.order++) }));
    return keyed.sort((a, b) => a.key - b.key || a.i - b.i).map((k) => k.item);
  }

  private queueResults(toolUses: readonly ToolUseBlock[]): void {
    for (const toolUse of toolUses) {
      const outcome = cycle(this.env.tools, this.counters.tool++);
      this.push(toolResult(toolUse, outcome));
      if (outcome.duplicate) this.push(toolResult(toolUse, outcome));
    }
  }

  private queueModel(outcome: ModelOutcome, call: number, model: string): void {
    const blocks = (specs: BlockSpec[], attempt: string) => specs.forEach((b, i) => this.pushBlock(b, `${call}.${attempt}.${i}`, model));
    switch (outcome.kind) {
      case 'reply':
        return this.queueReply(outcome.reply, `${call}.r`, model);
      case 'overloaded':
        blocks(outcome.partial, 'o');
        return this.push({ type: 'model_overloaded', message: 'Overloaded' }, 'model');
      case 'error':
        blocks(outcome.partial, 'e');
        return this.push({ type: 'model_error', error: outcome.image ? { kind: 'image', message: 'Image too large' } : { kind: 'other', message: 'Internal server error', status: 500 } }, 'model');
      case 'stream_fallback':
        blocks(outcome.partial, 's');
        this.push({ type: 'model_stream_fallback' }, 'model');
        return this.queueReply(outcome.retried, `${call}.f`, model);
    }
  }

  private pushBlock(spec: BlockSpec, id: string, model: string): void {
    if (spec.kind === 'tool_use' && spec.early) this.early.add(`tu${id}`);
    this.push(blockEvent(spec, id, model), 'model');
  }

  private queueReply(reply: ReplySpec, prefix: string, model: string): void {
    reply.blocks.forEach((b, i) => this.pushBlock(b, `${prefix}.${i}`, model));
    if (reply.ending !== 'normal') {
      const kind = reply.ending === 'other_api_error' ? 'other' : reply.ending;
      const message: AssistantMessage = {
        type: 'assistant',
        uuid: `a${prefix}.err`,
        message: { id: `msg${prefix}`, role: 'assistant', model, content: [{ type: 'text', text: `API error: ${kind}` }], stop_reason: kind === 'max_output_tokens' ? 'max_tokens' : null },
        apiError: { kind, text: `API error: ${kind}` },
      };
      this.push({ type: 'model_message', message }, 'model');
    }
    this.push(reply.usage ? { type: 'model_done', usage: reply.usage } : { type: 'model_done' }, 'model');
  }
}

function blockEvent(spec: BlockSpec, id: string, model: string): LoopEvent {
  const block: AssistantContentBlock =
    spec.kind === 'text' ? { type: 'text', text: spec.text }
    : spec.kind === 'thinking' ? { type: 'thinking', thinking: 'hmm', signature: `sig-${model}` }
    : { type: 'tool_use', id: `tu${id}`, name: spec.name, input: { path: 'a.ts' } };
  const message: AssistantMessage = {
    type: 'assistant',
    uuid: `a${id}`,
    message: { id: `msg${id.split('.').slice(0, 2).join('.')}`, role: 'assistant', model, content: [block], stop_reason: null },
  };
  return spec.kind === 'tool_use' ? { type: 'model_message', message, concurrencySafe: { [`tu${id}`]: spec.safe } } : { type: 'model_message', message };
}

function toolResult(toolUse: ToolUseBlock, outcome: ToolOutcome): LoopEvent {
  const message: UserMessage = {
    type: 'user',
    uuid: `r-${toolUse.id}`,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: outcome.kind === 'error' ? 'failed' : 'ok', ...(outcome.kind === 'error' ? { is_error: true } : {}) }] },
    sourceToolUseId: toolUse.id,
  };
  if (outcome.kind !== 'prevent_continuation') return { type: 'tool_result', toolUseId: toolUse.id, message };
  const extra: Message[] = [{ type: 'attachment', uuid: `h-${toolUse.id}`, attachment: { type: 'hook_stopped_continuation', message: 'hook stop', toolUseId: toolUse.id } }];
  return { type: 'tool_result', toolUseId: toolUse.id, message, extra, preventContinuation: true };
}

/** A microcompact-like edit: the first tool result not yet cleared gets cleared (none left: no edit). */
function clearFirstToolResult(messages: readonly Message[]): MessageEdit[] {
  for (const message of messages) {
    if (message.type !== 'user' || typeof message.message.content === 'string') continue;
    const block = message.message.content.find((b) => b.type === 'tool_result' && b.content !== CLEARED);
    if (block?.type === 'tool_result') return [{ op: 'replace_tool_result', toolUseId: block.tool_use_id, content: CLEARED }];
  }
  return [];
}

const CLEARED = '[Old tool result content cleared]';

function summary(id: string): Message[] {
  return [
    { type: 'system', uuid: `${id}:boundary`, subtype: 'compact_boundary', content: 'Conversation compacted' },
    { type: 'user', uuid: `${id}:summary`, message: { role: 'user', content: 'Summary of the conversation so far.' }, isMeta: true },
  ];
}

const prepare = (state: LoopState, options: RunOptions): LoopState => {
  const next = options.roundTrip ? (JSON.parse(JSON.stringify(state)) as LoopState) : state;
  return options.freeze ? deepFreeze(next) : next;
};

/** Runs one environment to its end (or to the safety bound) and records everything. */
export function runEnvironment(env: Environment, options: RunOptions = {}): Recording {
  const config: LoopConfig = options.freeze ? deepFreeze(structuredClone(env.config)) : env.config;
  const params = options.freeze ? deepFreeze(structuredClone(env.params)) : env.params;
  const world = new FakeWorld(env);
  const start = initialState(params, config);
  const effects: Effect[] = [...start.effects];
  start.effects.forEach((e) => world.answer(e));
  const steps: StepRecord[] = [];
  const continues: ContinueRecord[] = [];
  let state = start.state;
  let fed = 0;
  let stuck = false;
  let boundHit = false;
  let abortPending = env.abort;

  while (state.status === 'active') {
    if (fed >= EVENT_SAFETY_BOUND) {
      boundHit = true;
      break;
    }
    let event: LoopEvent;
    if (abortPending && fed >= abortPending.afterEvents) {
      event = { type: 'abort', reason: abortPending.reason };
      abortPending = null;
      world.dropModelEvents();
    } else {
      const next = world.inbox.shift();
      if (!next) {
        stuck = true;
        break;
      }
      event = next.event;
    }
    fed++;
    world.noteFed(event);
    const before = prepare(state, options);
    const result = step(before, options.freeze ? deepFreeze(event) : event, config);
    steps.push({ event, before, after: result.state, effects: result.effects });
    effects.push(...result.effects);
    const starts = result.effects.filter((e) => e.type === 'request_start').length;
    if (starts > 1) throw new Error(`step ${steps.length - 1} started ${starts} iterations`);
    if (starts === 1) {
      const transition = result.state.context.transition;
      if (transition) continues.push({ transition, stepIndex: steps.length - 1, before: before.context, after: result.state.context });
    }
    result.effects.forEach((e) => world.answer(e));
    state = result.state;
  }

  const afterTerminal: Recording['afterTerminal'] = [];
  if (state.status === 'done') {
    const leftovers = [...world.inbox.map((p) => p.event), { type: 'abort', reason: 'interrupt' } as LoopEvent];
    for (const event of leftovers) {
      const before = JSON.stringify(state);
      const result = step(state, event, config);
      afterTerminal.push({ event, effects: result.effects, changed: JSON.stringify(result.state) !== before });
    }
  }

  return {
    initial: start.state,
    steps,
    effects,
    modelRequests: world.modelRequests,
    continues,
    attempts: world.attempts,
    final: state,
    terminal: state.context.terminal,
    afterTerminal,
    stuck,
    boundHit,
  };
}
