/**
 * The agent loop as one XState v5 statechart: the single source of truth for control flow (docs/loop.md §4-5).
 *
 * Reading guide: an iteration starts at `iterationStart`, runs the context pipeline, the blocking check, samples
 * the model, then either runs tools (`runningTools` → `afterTools` → `turnLimit` → `next_turn`) or climbs the
 * `exitLadder`. Every transition back to `iterationStart` is one of the 7 Continue reasons (`meta.continue`);
 * the 11 final states are the Terminal reasons (10 of the original loop, and `max_budget_usd`). Guards and actions are named only (see `guards.ts`,
 * `actions/`), so they survive JSON export.
 *
 * The machine is run with xstate's pure `transition()` by `src/reducer/step.ts`; it never executes side effects:
 * its actions only write context and queue effects as data (named effect actions, see `wrapActions`).
 */
import { enqueueActions, setup } from 'xstate';
import type { FeatureSwitches } from '../config/config.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { EFFECT_TYPES, type ContextLayer, type Effect, type EffectType } from '../data/effects.ts';
import type { LoopEvent, LoopEventType } from '../data/events.ts';
import { TERMINAL_REASONS, type ContinueReason, type Terminal, type TerminalReason } from '../data/outcomes.ts';
import { actionImplementations, type ActionName } from './actions/index.ts';
import { guards, type GuardName } from './guards.ts';
import { toScratchContext, type ActionFn, type GuardFn, type MachineContext } from './machine-context.ts';
import type { AwaitDeclaration, EffectDeclarations } from './effect-protocol.ts';
import { tracerOf } from './macrostep-trace.ts';

export const MACHINE_ID = 'agentLoop';
const ITERATION_START = `#${MACHINE_ID}.iterationStart`;
const terminal = (reason: TerminalReason) => `#${MACHINE_ID}.${reason}`;

type AnyParams = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type ActionArgs = { context: MachineContext; event: LoopEvent };

/**
 * Guards and actions report to the context's tracer, when a caller put one there (`macrostep-trace.ts`). Each is
 * handed a copy of xstate's context in the scratch shape, the one shape every guard and action ever sees
 * (`ScratchContext`, which says why).
 */
function wrapGuards<T extends Record<string, GuardFn<AnyParams>>>(impls: T) {
  const wrapped: Record<string, (args: ActionArgs, params: AnyParams) => boolean> = {};
  for (const [name, fn] of Object.entries(impls)) {
    wrapped[name] = ({ context, event }, params) => {
      const result = fn(toScratchContext(context, context.config), event, params);
      tracerOf(context)?.guard(fn, params, result);
      return result;
    };
  }
  return wrapped as { [K in keyof T]: (args: ActionArgs, params: AnyParams) => boolean };
}

/**
 * Each named action runs its implementation once and queues what it returned: an `assign` of the context fields
 * and, in order, one effect action per effect (type = the effect's type, params = the effect). xstate resolves the
 * assigns into the snapshot and hands the effect actions to its action executor, so `transition()` returns the
 * step's effects as its action list.
 */
function wrapActions<T extends Record<string, ActionFn<AnyParams>>>(impls: T) {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(impls)) wrapped[name] = loopAction(fn);
  return wrapped as { [K in keyof T]: ReturnType<typeof enqueueActions<MachineContext, LoopEvent, AnyParams, LoopEvent, never, never, never, never, never>> };
}

/** One action implementation as the machine runs it (see `wrapActions`); for a chart that adds its own actions. */
export function loopAction(fn: ActionFn<AnyParams>) {
  return enqueueActions(({ context, event, enqueue }: ActionArgs & { enqueue: EnqueueLoose }, params: AnyParams) => {
    tracerOf(context)?.action(fn, params);
    const { effects, ...patch } = fn(toScratchContext(context, context.config), event, params);
    enqueue.assign(() => patch);
    if (effects) for (const effect of effects) enqueue({ type: effect.type, params: effect });
  });
}

type EnqueueLoose = ((action: { type: EffectType; params: Effect }) => void) & { assign: (patch: () => Partial<MachineContext>) => void };

/** The effect actions: named after the effect types, their params the effect. They do nothing when executed; a
 * driver reads them from `transition()`'s action list and executes the effect itself. */
const effectActions = Object.fromEntries(EFFECT_TYPES.map((type) => [type, () => undefined])) as Record<EffectType, () => void>;

/**
 * The machine starts from the context given as `input` (`initialState()` builds it). xstate's pure `transition()`
 * builds a throwaway actor without input on every call; failing at once with one prebuilt error keeps that cheap
 * (no stack trace, no entry action run on an undefined context).
 */
const MISSING_INPUT = Object.freeze(new TurnloopError('MACHINE_INPUT_MISSING', 'the loop machine starts from the context given as its input'));

function contextFromInput(input: MachineContext | undefined): MachineContext {
  if (input === undefined) throw MISSING_INPUT;
  return input;
}

/**
 * The effect protocol, declared where it happens: a waiting state's `meta.awaits` names the effects it waits on and
 * the events that answer them (`effect-protocol.ts` derives the table everything else reads).
 */
function awaits(effects: EffectType[], answers: LoopEventType[]): { awaits: AwaitDeclaration } {
  return { awaits: { effects, answers } };
}

/**
 * The effects no state waits on (the root's `meta.effects`). Kept `as const`: the effect types it names are also
 * read by the type checker (`effect-protocol.ts`), so an executor record keyed by them is checked for completeness.
 */
export const EFFECT_DECLARATIONS = {
  fireAndForget: ['emit', 'request_start', 'run_stop_failure_hooks', 'run_post_sampling_hooks', 'discard_tools', 'terminated'],
  answeredAnyTime: [
    { effect: 'start_tool_use_summary', answers: ['tool_use_summary_ready'], match: { eventField: 'summaryId', effectPath: 'summaryId' } },
    // Streaming: each queued tool answers with its own result, or the executor's end covers what is left.
    { effect: 'enqueue_tool', answers: ['tool_result', 'tools_finished'], match: { eventField: 'toolUseId', effectPath: 'toolUse.id' } },
  ],
  discards: [{ effect: 'discard_tools', discarded: ['enqueue_tool', 'finish_tools'] }],
} as const satisfies EffectDeclarations;

/** A transition back to the start of an iteration, labelled with its Continue reason. */
function continueWith(reason: ContinueReason, action: ActionName, guard?: GuardName) {
  return {
    ...(guard ? { guard } : {}),
    target: ITERATION_START,
    actions: action,
    description: `continue: ${reason}`,
    meta: { continue: reason },
  };
}

/** A context-pipeline layer: skip when its feature is off, else ask for it and wait for its result. */
function layerStates(name: string, layer: ContextLayer, feature: keyof FeatureSwitches, next: string) {
  return {
    [name]: {
      always: [
        {
          guard: { type: 'isLayerEnabled' as const, params: { feature } },
          target: `${name}Pending`,
          actions: { type: 'requestContextLayer' as const, params: { layer } },
        },
        { target: next },
      ],
    },
    [`${name}Pending`]: {
      meta: awaits(['context_layer'], ['context_layer_result']),
      on: { context_layer_result: { target: next, actions: 'applyContextLayer' as const } },
    },
  };
}

const finalStates = Object.fromEntries(
  TERMINAL_REASONS.map((reason) => [
    reason,
    { type: 'final' as const, entry: { type: 'terminate' as const, params: { reason } }, meta: { terminal: reason } },
  ]),
) as unknown as Record<TerminalReason, { type: "final"; entry: { type: "terminate"; params: { reason: TerminalReason } } }>;

export const loopMachine = setup({
  types: {
    context: {} as MachineContext,
    events: {} as LoopEvent,
    input: {} as MachineContext,
    output: {} as Terminal | null,
  },
  guards: wrapGuards(guards),
  actions: { ...wrapActions(actionImplementations), ...effectActions },
}).createMachine({
  id: MACHINE_ID,
  context: ({ input }) => contextFromInput(input as MachineContext | undefined),
  initial: 'iterationStart',
  output: ({ context }) => context.terminal,
  meta: { effects: EFFECT_DECLARATIONS },
  on: {
    // An abort anywhere not handled below ends the run as aborted while streaming (docs/loop.md §4.7).
    abort: { target: '.abortingSampling', actions: 'noteAbort' },
    tool_use_summary_ready: { actions: 'recordToolUseSummary' },
  },
  states: {
    iterationStart: { entry: 'startIteration', always: { target: 'contextPipeline' } },

    contextPipeline: {
      description: 'docs/loop.md §4.3: tool-result budget → snip → microcompact → context collapse → autocompact',
      initial: 'toolResultBudget',
      states: {
        ...layerStates('toolResultBudget', 'tool_result_budget', 'toolResultBudget', 'snip'),
        ...layerStates('snip', 'snip', 'historySnip', 'microcompact'),
        ...layerStates('microcompact', 'microcompact', 'microcompact', 'contextCollapse'),
        ...layerStates('contextCollapse', 'context_collapse', 'contextCollapse', 'autocompact'),
        autocompact: {
          always: [
            { guard: 'shouldAutocompact', target: 'autocompactPending', actions: 'requestAutocompact' },
            { target: `#${MACHINE_ID}.blockingCheck` },
          ],
        },
        autocompactPending: {
          meta: awaits(['autocompact'], ['autocompact_result']),
          on: {
            autocompact_result: [
              { guard: 'compactionSucceeded', target: `#${MACHINE_ID}.blockingCheck`, actions: 'applyAutocompact' },
              { target: `#${MACHINE_ID}.blockingCheck`, actions: 'recordAutocompactFailure' },
            ],
          },
        },
      },
    },

    blockingCheck: {
      always: [
        { guard: 'modelCallCapReached', target: terminal('max_turns'), actions: 'stopAtModelCallCap' },
        { guard: 'isAtBlockingLimit', target: terminal('blocking_limit'), actions: 'emitBlockingLimitError' },
        // Extension `maxBudgetUsd`: right before the call, after every ending of the original loop.
        { guard: 'spendCapReached', target: terminal('max_budget_usd'), actions: 'stopAtSpendCap' },
        { target: 'sampling', actions: 'callModel' },
      ],
    },

    sampling: {
      // The root's abort also ends the wait (the call is cancelled).
      meta: awaits(['call_model'], ['model_done', 'model_error', 'model_overloaded', 'abort']),
      on: {
        model_message: { actions: 'recordAssistantMessage' },
        tool_result: { guard: 'isKnownToolUse', actions: 'recordToolResult' },
        model_done: { target: 'afterSampling', actions: 'recordUsage' },
        model_stream_fallback: { actions: 'discardAttempt' },
        model_overloaded: [
          { guard: 'canFallBack', actions: ['switchToFallbackModel', 'callModel'], description: 'fallback model, same request' },
          { target: 'afterSampling', actions: 'recordOverloadedAsApiError', description: 'no fallback left: an API error (docs/loop.md §4.5)' },
        ],
        model_error: [
          { guard: 'isImageError', target: terminal('image_error'), actions: 'failOnImageError' },
          { target: terminal('model_error'), actions: 'failOnModelError' },
        ],
      },
    },

    afterSampling: {
      entry: ['runPostSamplingHooks', 'emitResolvedToolUseSummary'],
      always: [
        { guard: 'hasStreamedToolUse', target: 'runningTools', actions: 'finishStreamingTools' },
        { guard: 'hasToolUse', target: 'runningTools', actions: 'runToolBatches' },
        { target: 'exitLadder' },
      ],
    },

    abortingSampling: {
      always: [
        { guard: 'streamingToolsStarted', target: 'drainingAbortedTools', actions: 'finishStreamingTools' },
        { target: terminal('aborted_streaming'), actions: ['answerOrphanToolUses', 'emitInterruptedMessage'] },
      ],
    },

    drainingAbortedTools: {
      meta: awaits(['finish_tools'], ['tools_finished']),
      on: {
        tool_result: { guard: 'isKnownToolUse', actions: 'recordToolResult' },
        tools_finished: { target: terminal('aborted_streaming'), actions: ['answerOrphanToolUses', 'emitInterruptedMessage'] },
        abort: { actions: 'noteAbort' },
      },
    },

    exitLadder: {
      description: 'docs/loop.md §4.9: no tool_use; first match wins',
      initial: 'promptTooLong',
      states: {
        promptTooLong: {
          always: [{ guard: 'canDrainCollapse', target: 'collapseDrain', actions: 'requestCollapseDrain' }, { target: 'reactiveCompact' }],
        },
        collapseDrain: {
          meta: awaits(['collapse_drain'], ['collapse_drain_result']),
          on: {
            collapse_drain_result: [
              continueWith('collapse_drain_retry', 'continueCollapseDrainRetry', 'drainCommitted'),
              { target: 'reactiveCompact' },
            ],
          },
        },
        reactiveCompact: {
          always: [
            { guard: 'canReactiveCompact', target: 'reactiveCompactPending', actions: 'requestReactiveCompact' },
            { target: 'unrecoveredPromptError' },
          ],
        },
        reactiveCompactPending: {
          meta: awaits(['reactive_compact'], ['reactive_compact_result']),
          on: {
            reactive_compact_result: [
              continueWith('reactive_compact_retry', 'continueReactiveCompactRetry', 'compactionSucceeded'),
              { target: 'unrecoveredPromptError' },
            ],
          },
        },
        unrecoveredPromptError: {
          description: 'stop hooks are not run on prompt-too-long (docs/loop.md §9.4); stop-failure hooks are',
          always: [
            { guard: 'withheldMediaError', target: terminal('image_error'), actions: ['releaseWithheld', 'runStopFailureHooks', 'recordApiErrorEnding'] },
            { guard: 'withheldPromptTooLong', target: terminal('prompt_too_long'), actions: ['releaseWithheld', 'runStopFailureHooks', 'recordApiErrorEnding'] },
            { target: 'maxOutputTokens' },
          ],
        },
        maxOutputTokens: {
          always: [
            continueWith('max_output_tokens_escalate', 'continueMaxOutputTokensEscalate', 'canEscalateMaxOutputTokens'),
            continueWith('max_output_tokens_recovery', 'continueMaxOutputTokensRecovery', 'canRecoverMaxOutputTokens'),
            { guard: 'withheldMaxOutputTokens', target: 'apiError', actions: 'releaseWithheld' },
            { target: 'apiError' },
          ],
        },
        apiError: {
          always: [
            { guard: 'lastMessageIsApiError', target: terminal('completed'), actions: ['runStopFailureHooks', 'recordApiErrorEnding'] },
            { target: 'stopHooks', actions: 'requestStopHooks' },
          ],
        },
        stopHooks: {
          description: 'an abort waits for the hooks: silent if none had answered, interrupted if some had',
          meta: awaits(['run_stop_hooks'], ['stop_hooks_result']),
          on: {
            stop_hooks_result: [
              { guard: 'abortedBeforeStopHookAnswered', target: 'tokenBudget', actions: 'summarizeStopHooks' },
              { guard: 'abortedAfterStopHookAnswered', target: terminal('stop_hook_prevented'), actions: 'preventByAbort' },
              { guard: 'stopHookPreventsContinuation', target: terminal('stop_hook_prevented'), actions: 'preventByStopHook' },
              { guard: 'stopHookBlockingCapReached', target: terminal('stop_hook_prevented'), actions: ['summarizeStopHooks', 'stopAtStopHookCap'] },
              continueWith('stop_hook_blocking', 'continueStopHookBlocking', 'stopHookBlocks'),
              { target: 'tokenBudget', actions: 'summarizeStopHooks' },
            ],
            abort: { actions: 'noteAbort' },
          },
        },
        tokenBudget: {
          always: [
            continueWith('token_budget_continuation', 'continueTokenBudget', 'shouldContinueForTokenBudget'),
            { target: terminal('completed'), actions: 'completeTokenBudget' },
          ],
        },
      },
    },

    runningTools: {
      // Non-streaming: run_tools; streaming: finish_tools after the queued tools.
      meta: awaits(['run_tools', 'finish_tools'], ['tools_finished']),
      on: {
        tool_result: { guard: 'isKnownToolUse', actions: 'recordToolResult' },
        tools_finished: { target: 'afterTools', actions: 'answerOrphanToolUses' },
        abort: { actions: 'noteAbort' },
      },
    },

    afterTools: {
      entry: 'startToolUseSummary',
      always: [
        { guard: 'abortedDuringTools', target: terminal('aborted_tools'), actions: 'emitToolInterruption' },
        { guard: 'toolPreventedContinuation', target: terminal('hook_stopped') },
        { target: 'collectingAttachments', actions: 'requestAttachments' },
      ],
    },

    collectingAttachments: {
      meta: awaits(['collect_attachments'], ['attachments_collected', 'abort']),
      on: {
        attachments_collected: { target: 'turnLimit', actions: 'appendAttachments' },
        abort: { target: terminal('aborted_tools'), actions: ['noteAbort', 'emitToolInterruption'] },
      },
    },

    turnLimit: {
      always: [
        { guard: 'maxTurnsReached', target: terminal('max_turns'), actions: 'stopAtMaxTurns' },
        continueWith('next_turn', 'continueNextTurn'),
      ],
    },

    ...finalStates,
  },
});

export type LoopMachine = typeof loopMachine;

