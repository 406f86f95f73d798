/**
 * OpenTelemetry spans from a run's step stream, after the GenAI semantic conventions: a run observer
 * (`RunObserverFactory`) that reads each step's event and effects and opens or closes spans on the user's `Tracer`.
 *
 * - `invoke_agent <agent>` (INTERNAL): the whole run, from its first step to its Terminal; total token usage; the
 *   statechart's transitions as span events named `transition` (step index, event, state before and after, and the
 *   Continue or Terminal reason where one was taken); status ERROR for a failure Terminal.
 * - `chat <model>` (CLIENT), a child of the run: one per `call_model` effect, ended by `model_done`, `model_error`
 *   or `model_overloaded`; request model and max tokens, response model and id, token usage, finish reasons; an
 *   API-error message sets `error.type` to its kind.
 * - `execute_tool <tool>` (INTERNAL), a child of the run: from `run_tools` / `enqueue_tool` to the call's
 *   `tool_result`; tool name and call id; an error result sets status ERROR.
 * - `compaction` (INTERNAL), a child of the run: autocompact and reactive compact runs, with tokens before/after;
 *   with `traceRunAndForks`, the forked summarising run's own spans nest inside it.
 *
 * Invariants: the observer never throws into the loop (a failing tracer loses spans, not the run); every span it
 * opens is ended, at the latest when the run ends or the observer closes; content (prompts, tool inputs and
 * results) is recorded only with `captureContent`, always through the session-log redactor.
 */
import { context as otelContext, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { LoopConfig } from '../config/config.ts';
import type { AssistantContentBlock, ToolUseBlock, Usage } from '../messages/types.ts';
import type { Effect, EffectOf } from '../data/effects.ts';
import type { EventOf, LoopEvent } from '../data/events.ts';
import type { Continue, Terminal } from '../data/outcomes.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { executorOf } from '../runtime/effect-executors.ts';
import type { RunObserver, RunObserverFactory } from '../runtime/query-options.ts';
import { createRedactor, type RedactOptions } from '../replay/redact.ts';
import { inputMessages, outputMessage, systemInstructions } from './content-parts.ts';
import { GEN_AI, OPERATION, PROVIDER_ANTHROPIC, TURNLOOP } from './gen-ai-attributes.ts';

export interface TelemetryOptions {
  /** The user's tracer (`trace.getTracer('my-app')` from `@opentelemetry/api`). */
  tracer: Tracer;
  /** Record prompts, outputs, tool inputs and results on the spans (redacted). Off by default. */
  captureContent?: boolean;
  /** Extra redaction patterns for captured content (the session-log built-ins always apply). */
  redact?: RedactOptions;
  /** `gen_ai.agent.name`, and the run span's name: `invoke_agent <agentName>`. Default `turnloop`. */
  agentName?: string;
  /** The parent of the run span; default: the context active when the run starts. */
  parentContext?: Context;
}

/**
 * Terminals that mean the run could not finish its work (the same set as `turnloop run --strict`): their run span
 * ends with status ERROR.
 */
const FAILURE_TERMINALS = new Set(['blocking_limit', 'image_error', 'model_error', 'prompt_too_long', 'max_turns']);

/**
 * @example
 * const tracer = trace.getTracer('my-app');
 * await runQuery({ prompt, tools, observers: [traceRun({ tracer })] });
 */
export function traceRun(options: TelemetryOptions): RunObserverFactory {
  return (run) => {
    try {
      return new RunTracer(options, run.config, run.params);
    } catch {
      return { onStep: () => undefined };
    }
  };
}

/**
 * `traceRun` for a run and for the runs it forks (the compaction's summarising call runs as a forked loop): a forked
 * run's `invoke_agent` span is a child of the `compaction` span open when it starts, so its `chat` span nests there.
 * Give `run` to `observers` and `fork` to `forkObservers`.
 */
export function traceRunAndForks(options: TelemetryOptions): { run: RunObserverFactory; fork: RunObserverFactory } {
  let main: RunTracer | null = null;
  return {
    run: (run) => {
      try {
        main = new RunTracer(options, run.config, run.params);
        return main;
      } catch {
        return { onStep: () => undefined };
      }
    },
    fork: (run) => traceRun({ ...options, ...(main ? { parentContext: main.forkParent() } : {}) })(run),
  };
}

interface ChatCall {
  span: Span;
  blocks: AssistantContentBlock[];
  apiError?: string;
}

class RunTracer implements RunObserver {
  private readonly tracer: Tracer;
  private readonly agent: Span;
  private readonly agentContext: Context;
  private readonly capture: boolean;
  private readonly redact: ReturnType<typeof createRedactor>;
  private chat: ChatCall | null = null;
  private readonly tools = new Map<string, Span>();
  private compaction: Span | null = null;
  private lastValue = '';
  private lastTransition: Continue | null = null;
  private usage = { input: 0, output: 0 };
  private ended = false;

  constructor(options: TelemetryOptions, config: LoopConfig, params: LoopParams) {
    this.tracer = options.tracer;
    this.capture = options.captureContent === true;
    this.redact = createRedactor(options.redact);
    const agentName = options.agentName ?? 'turnloop';
    const parent = options.parentContext ?? otelContext.active();
    this.agent = this.tracer.startSpan(
      `${OPERATION.invokeAgent} ${agentName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [GEN_AI.operationName]: OPERATION.invokeAgent,
          [GEN_AI.providerName]: PROVIDER_ANTHROPIC,
          [GEN_AI.agentName]: agentName,
          [GEN_AI.conversationId]: params.runId ?? config.sessionId,
          [GEN_AI.requestModel]: config.model,
          [TURNLOOP.querySource]: params.querySource ?? 'sdk',
        },
      },
      parent,
    );
    this.agentContext = trace.setSpan(parent, this.agent);
  }

  /** Where a forked run's span belongs: under the open compaction, else under this run. */
  forkParent(): Context {
    return this.compaction ? trace.setSpan(this.agentContext, this.compaction) : this.agentContext;
  }

  readonly onStep: RunObserver['onStep'] = (step) => {
    if (this.ended) return;
    try {
      if (step.event) this.onEvent(step.event);
      this.onTransition(step.index, step.event, step.state);
      for (const effect of step.effects) this.onEffect(effect, step.state);
    } catch {
      // A tracer that throws must not break the run; the spans of this step are lost.
    }
  };

  close(): void {
    if (!this.ended) this.finish(null);
  }

  private child(name: string, kind: SpanKind, attributes: Attributes): Span {
    return this.tracer.startSpan(name, { kind, attributes }, this.agentContext);
  }

  private content(value: unknown): string {
    return this.redact.toJson(value);
  }

  /**
   * Spans opened by effects: the tools a tool command starts and the run's end come from the executor record (as
   * the drivers run them); the model call and the compactions are the GenAI spans named after their effect.
   */
  private onEffect(effect: Effect, state: LoopState): void {
    const executor = executorOf(effect);
    if (executor.kind === 'end') return this.finish(executor.terminal(effect));
    if (executor.kind === 'tools') {
      const command = executor.command(effect);
      if (command.op === 'run') for (const batch of command.batches) for (const toolUse of batch.toolUses) this.startTool(toolUse);
      if (command.op === 'enqueue') this.startTool(command.toolUse);
      return;
    }
    switch (effect.type) {
      case 'call_model':
        return this.startChat(effect, state);
      case 'autocompact':
        return this.startCompaction('autocompact', 'auto', effect.tokenCount);
      case 'reactive_compact':
        return this.startCompaction('reactive_compact', effect.trigger, undefined);
      default:
        return;
    }
  }

  private onEvent(event: LoopEvent): void {
    switch (event.type) {
      case 'model_message':
        return this.chatMessage(event);
      case 'model_done':
        return this.endChat(event.usage, event.stopReason ?? undefined);
      case 'model_error':
        return this.failChat(event.error.type ?? event.error.kind, event.error.message);
      case 'model_overloaded':
        return this.failChat('overloaded', event.message);
      case 'model_stream_fallback':
        // The transport retried without streaming: the same call goes on, its broken attempt's output is void.
        if (this.chat) {
          this.chat.span.addEvent('stream_fallback');
          this.chat.blocks = [];
        }
        return;
      case 'tool_result':
        return this.endTool(event);
      case 'autocompact_result':
      case 'reactive_compact_result':
        return this.endCompaction(event);
      default:
        return;
    }
  }

  private onTransition(index: number, event: LoopEvent | null, state: LoopState): void {
    const value = stateValueText(state.value);
    const transition = state.context.transition;
    const continued = transition !== null && transition !== this.lastTransition;
    this.lastTransition = transition;
    if (value === this.lastValue && !continued) return;
    const attributes: Attributes = {
      [TURNLOOP.stepIndex]: index,
      [TURNLOOP.event]: event?.type ?? 'start',
      [TURNLOOP.stateFrom]: this.lastValue || 'none',
      [TURNLOOP.stateTo]: value,
      [TURNLOOP.turn]: state.context.turnCount,
    };
    if (continued) attributes[TURNLOOP.continueReason] = transition.reason;
    if (state.status === 'done' && state.context.terminal) attributes[TURNLOOP.terminalReason] = state.context.terminal.reason;
    this.lastValue = value;
    this.agent.addEvent('transition', attributes);
  }

  private startChat(effect: EffectOf<'call_model'>, state: LoopState): void {
    if (this.chat) this.failChat('superseded', 'a new model call started before this one ended');
    const { request } = effect;
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.chat,
      [GEN_AI.providerName]: PROVIDER_ANTHROPIC,
      [GEN_AI.requestModel]: request.model,
      [GEN_AI.requestMaxTokens]: request.max_tokens,
      [TURNLOOP.querySource]: effect.querySource,
      [TURNLOOP.modelCall]: effect.modelCall,
      [TURNLOOP.turn]: state.context.turnCount,
    };
    if (this.capture) {
      attributes[GEN_AI.inputMessages] = this.content(inputMessages(request.messages));
      if (request.system.length > 0) attributes[GEN_AI.systemInstructions] = this.content(systemInstructions(request.system));
    }
    this.chat = { span: this.child(`${OPERATION.chat} ${request.model}`, SpanKind.CLIENT, attributes), blocks: [] };
  }

  private chatMessage(event: EventOf<'model_message'>): void {
    const chat = this.chat;
    if (!chat) return;
    const { message } = event.message;
    chat.span.setAttributes({ [GEN_AI.responseModel]: message.model, [GEN_AI.responseId]: message.id });
    if (event.message.apiError) chat.apiError = event.message.apiError.kind;
    if (this.capture) chat.blocks.push(...message.content);
  }

  private endChat(usage: Usage | undefined, stopReason: string | undefined): void {
    const chat = this.chat;
    if (!chat) return;
    this.chat = null;
    const attributes: Attributes = {};
    if (stopReason) attributes[GEN_AI.finishReasons] = [stopReason];
    if (usage) {
      attributes[GEN_AI.inputTokens] = usage.input_tokens;
      attributes[GEN_AI.outputTokens] = usage.output_tokens;
      if (usage.cache_read_input_tokens != null) attributes[GEN_AI.cacheReadTokens] = usage.cache_read_input_tokens;
      if (usage.cache_creation_input_tokens != null) attributes[GEN_AI.cacheCreationTokens] = usage.cache_creation_input_tokens;
      this.usage.input += usage.input_tokens;
      this.usage.output += usage.output_tokens;
    }
    if (this.capture) attributes[GEN_AI.outputMessages] = this.content([outputMessage(chat.blocks, stopReason)]);
    chat.span.setAttributes(attributes);
    if (chat.apiError) {
      chat.span.setAttribute(GEN_AI.errorType, chat.apiError);
      chat.span.setStatus({ code: SpanStatusCode.ERROR, message: `the API answered with an error (${chat.apiError})` });
    }
    chat.span.end();
  }

  private failChat(errorType: string, message: string): void {
    const chat = this.chat;
    if (!chat) return;
    this.chat = null;
    chat.span.setAttribute(GEN_AI.errorType, errorType);
    chat.span.setStatus({ code: SpanStatusCode.ERROR, message });
    chat.span.end();
  }

  private startTool(toolUse: ToolUseBlock): void {
    if (this.tools.has(toolUse.id)) return;
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.executeTool,
      [GEN_AI.toolName]: toolUse.name,
      [GEN_AI.toolCallId]: toolUse.id,
      [GEN_AI.toolType]: 'function',
    };
    if (this.capture) attributes[GEN_AI.toolArguments] = this.content(toolUse.input);
    this.tools.set(toolUse.id, this.child(`${OPERATION.executeTool} ${toolUse.name}`, SpanKind.INTERNAL, attributes));
  }

  private endTool(event: EventOf<'tool_result'>): void {
    const span = this.tools.get(event.toolUseId);
    if (!span) return;
    this.tools.delete(event.toolUseId);
    const content = event.message.message.content;
    const block = Array.isArray(content) ? content.find((b) => b.type === 'tool_result' && b.tool_use_id === event.toolUseId) : undefined;
    const result = block?.type === 'tool_result' ? block : undefined;
    if (this.capture && result) span.setAttribute(GEN_AI.toolResult, this.content(result.content));
    if (result?.is_error) {
      span.setAttribute(GEN_AI.errorType, 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool returned an error result' });
    }
    span.end();
  }

  private startCompaction(kind: string, trigger: string, tokensBefore: number | undefined): void {
    this.compaction?.end();
    const attributes: Attributes = { [TURNLOOP.compactionKind]: kind, [TURNLOOP.compactionTrigger]: trigger };
    if (tokensBefore !== undefined) attributes[TURNLOOP.tokensBefore] = tokensBefore;
    this.compaction = this.child('compaction', SpanKind.INTERNAL, attributes);
  }

  private endCompaction(event: EventOf<'autocompact_result' | 'reactive_compact_result'>): void {
    const span = this.compaction;
    if (!span) return;
    this.compaction = null;
    if (event.preCompactTokens !== undefined) span.setAttribute(TURNLOOP.tokensBefore, event.preCompactTokens);
    if ('postCompactTokens' in event && typeof event.postCompactTokens === 'number') span.setAttribute(TURNLOOP.tokensAfter, event.postCompactTokens);
    if (!event.ok) {
      span.setAttribute(GEN_AI.errorType, 'compaction_failed');
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.error ?? 'compaction failed' });
    }
    span.end();
  }

  /** Ends every open span; the run span last, with the Terminal (null: the observer closed before one). */
  private finish(terminal: Terminal | null): void {
    this.ended = true;
    this.failChat('run_ended', 'the run ended during the model call');
    for (const span of this.tools.values()) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the run ended before the tool reported a result' });
      span.end();
    }
    this.tools.clear();
    this.compaction?.end();
    this.compaction = null;
    this.agent.setAttributes({ [GEN_AI.inputTokens]: this.usage.input, [GEN_AI.outputTokens]: this.usage.output });
    if (terminal) {
      this.agent.setAttribute(TURNLOOP.terminalReason, terminal.reason);
      if (terminal.reason !== 'model_error' && terminal.message) this.agent.setAttribute(TURNLOOP.terminalMessage, terminal.message);
      if (FAILURE_TERMINALS.has(terminal.reason) || ('cap' in terminal && terminal.cap !== undefined)) {
        this.agent.setAttribute(GEN_AI.errorType, terminal.reason);
        this.agent.setStatus({ code: SpanStatusCode.ERROR, message: terminal.reason === 'model_error' ? terminal.error.message : `the run ended with ${terminal.reason}` });
      }
    } else {
      this.agent.setStatus({ code: SpanStatusCode.ERROR, message: 'the run was closed before it reached a terminal' });
    }
    this.agent.end();
  }
}

/** `{ exitLadder: 'stopHooks' }` → `exitLadder.stopHooks`. */
function stateValueText(value: LoopState['value']): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, inner]) => `${key}.${stateValueText(inner as LoopState['value'])}`)
    .join(',');
}
