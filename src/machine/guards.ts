/**
 * Every guard of the loop machine, by name. Each is a pure predicate over context and event; the machine
 * definition (`loop-machine.ts`) refers to them only by name, so they show up in exports and diagrams.
 */
import type { FeatureSwitches } from '../config/config.ts';
import type { EventOf } from '../data/events.ts';
import type { GuardFn } from './machine-context.ts';
import {
  autocompactThresholdFor,
  currentTokenCount,
  modelCallsExhausted,
  isCompactSource,
  lastAssistantMessage,
  nextTurnExceedsMaxTurns,
  spendCapExhausted,
  thresholdsFor,
  tokenBudgetDecision,
  withheldKind,
} from './queries.ts';

// --- context pipeline and blocking check (docs/loop.md §4.3-4) ---

const isLayerEnabled: GuardFn<{ feature: keyof FeatureSwitches }> = (context, _event, params) =>
  context.config.features[params.feature];

/**
 * Autocompact: enabled, not while context collapse owns the headroom (docs/loop.md §6), not a compaction run, breaker
 * closed (docs/loop.md §9.3), over the threshold.
 */
const shouldAutocompact: GuardFn = (context) =>
  context.config.features.autoCompact &&
  !context.config.features.contextCollapse &&
  !isCompactSource(context.querySource) &&
  (context.autoCompactTracking?.consecutiveFailures ?? 0) < context.config.limits.autocompactMaxFailures &&
  currentTokenCount(context) >= autocompactThresholdFor(context);

const compactionSucceeded: GuardFn = (_context, event) =>
  (event.type === 'autocompact_result' || event.type === 'reactive_compact_result') &&
  event.ok &&
  Array.isArray(event.postCompactMessages);

/** docs/loop.md §9.10: the model-call cap ends the run before one more call. */
const modelCallCapReached: GuardFn = (context) => modelCallsExhausted(context);

/** Extension `maxBudgetUsd`: the spend cap ends the run before a call that could pass it. */
const spendCapReached: GuardFn = (context) => spendCapExhausted(context);

/** docs/loop.md §4.4: only when nothing else can recover and nothing was compacted this iteration. */
const isAtBlockingLimit: GuardFn = (context) => {
  const { features } = context.config;
  if (context.iter.compacted || isCompactSource(context.querySource)) return false;
  if (features.reactiveCompact && features.autoCompact) return false;
  if (features.contextCollapse && features.autoCompact) return false;
  return currentTokenCount(context) >= thresholdsFor(context).blocking;
};

// --- sampling (docs/loop.md §4.5-7) ---

const canFallBack: GuardFn = (context) => {
  const fallback = context.params.fallbackModel;
  return fallback !== undefined && fallback !== context.currentModel && !modelCallsExhausted(context) && !spendCapExhausted(context);
};

const isImageError: GuardFn = (_context, event) => event.type === 'model_error' && event.error.kind === 'image';

const hasToolUse: GuardFn = (context) => context.iter.needsFollowUp;

const hasStreamedToolUse: GuardFn = (context) => context.iter.needsFollowUp && context.iter.streamingToolsStarted;

const streamingToolsStarted: GuardFn = (context) => context.iter.streamingToolsStarted;

/** Results of a discarded attempt (or a stray id) are ignored: only this attempt's tool_use ids count. */
const isKnownToolUse: GuardFn = (context, event) => {
  const id = (event as EventOf<'tool_result'>).toolUseId;
  return context.iter.toolUses.some((t) => t.id === id) && !context.iter.answeredToolUseIds.includes(id);
};

// --- exit ladder (docs/loop.md §4.9) ---

/** docs/loop.md §9.5: collapse drain never twice in a row. */
const canDrainCollapse: GuardFn = (context) =>
  withheldKind(context) === 'prompt_too_long' &&
  context.config.features.contextCollapse &&
  context.transition?.reason !== 'collapse_drain_retry';

const drainCommitted: GuardFn = (_context, event) => event.type === 'collapse_drain_result' && event.committed > 0;

/** docs/loop.md §9.1: reactive compact once between two real turns. */
const canReactiveCompact: GuardFn = (context) => {
  const kind = withheldKind(context);
  return (
    (kind === 'prompt_too_long' || kind === 'media_size') &&
    context.config.features.reactiveCompact &&
    !context.hasAttemptedReactiveCompact
  );
};

const withheldMediaError: GuardFn = (context) => withheldKind(context) === 'media_size';
const withheldPromptTooLong: GuardFn = (context) => withheldKind(context) === 'prompt_too_long';
const withheldMaxOutputTokens: GuardFn = (context) => withheldKind(context) === 'max_output_tokens';

/** Looks at the state's override only: a caller's override seeds it for the first iteration (docs/loop.md §2). */
const canEscalateMaxOutputTokens: GuardFn = (context) =>
  withheldKind(context) === 'max_output_tokens' &&
  context.config.features.maxOutputTokensCap &&
  context.maxOutputTokensOverride === null;

/** docs/loop.md §9.2: at most `maxOutputTokensRecovery` recoveries between two real turns. */
const canRecoverMaxOutputTokens: GuardFn = (context) =>
  withheldKind(context) === 'max_output_tokens' &&
  context.maxOutputTokensRecoveryCount < context.config.limits.maxOutputTokensRecovery;

/** docs/loop.md §9.4: an API error ends the turn without stop hooks. */
const lastMessageIsApiError: GuardFn = (context) => lastAssistantMessage(context)?.apiError !== undefined;

/** docs/loop.md §4.9.4: an abort before any stop hook answered counts as the hooks having said nothing. */
const abortedBeforeStopHookAnswered: GuardFn = (context, event) =>
  event.type === 'stop_hooks_result' && context.iter.abortReason !== null && event.hookCount === 0;

const abortedAfterStopHookAnswered: GuardFn = (context, event) =>
  event.type === 'stop_hooks_result' && context.iter.abortReason !== null;

const stopHookPreventsContinuation: GuardFn = (_context, event) =>
  event.type === 'stop_hooks_result' && event.preventContinuation;

const stopHookBlocks: GuardFn = (_context, event) => event.type === 'stop_hooks_result' && event.blockingErrors.length > 0;

/** docs/loop.md §9.10: a stop hook that always blocks cannot loop forever. */
const stopHookBlockingCapReached: GuardFn = (context, event) =>
  stopHookBlocks(context, event, undefined) && context.stopHookBlockingCount >= context.config.limits.maxStopHookBlocking;

/** docs/loop.md §9.6: stops on diminishing returns and for subagents; never after an abort (Extension `abortEndsTurn`). */
const shouldContinueForTokenBudget: GuardFn = (context) =>
  context.iter.abortReason === null && tokenBudgetDecision(context).action === 'continue';

// --- after tools (docs/loop.md §4.12-15) ---

const abortedDuringTools: GuardFn = (context) => context.iter.abortReason !== null;

const toolPreventedContinuation: GuardFn = (context) => context.iter.preventContinuation;

const maxTurnsReached: GuardFn = (context) => nextTurnExceedsMaxTurns(context);

export const guards = {
  isLayerEnabled,
  shouldAutocompact,
  compactionSucceeded,
  modelCallCapReached,
  spendCapReached,
  isAtBlockingLimit,
  canFallBack,
  isImageError,
  hasToolUse,
  hasStreamedToolUse,
  streamingToolsStarted,
  isKnownToolUse,
  canDrainCollapse,
  drainCommitted,
  canReactiveCompact,
  withheldMediaError,
  withheldPromptTooLong,
  withheldMaxOutputTokens,
  canEscalateMaxOutputTokens,
  canRecoverMaxOutputTokens,
  lastMessageIsApiError,
  abortedBeforeStopHookAnswered,
  abortedAfterStopHookAnswered,
  stopHookPreventsContinuation,
  stopHookBlocks,
  stopHookBlockingCapReached,
  shouldContinueForTokenBudget,
  abortedDuringTools,
  toolPreventedContinuation,
  maxTurnsReached,
};

export type GuardName = keyof typeof guards;
