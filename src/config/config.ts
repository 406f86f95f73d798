/**
 * Engine configuration: plain data, snapshotted once when a run starts and never re-read (docs/loop.md §2).
 * The reducer reads only this, its state and the event. Key names are part of the public contract:
 * scenario files, session logs and docs use them.
 */

export interface ModelInfo {
  /** Tokens the model accepts in one request (prompt + output). */
  contextWindow: number;
  /** Default `max_tokens` for a request. */
  maxOutputTokens: number;
  /** Highest `max_tokens` the model allows. */
  maxOutputTokensUpperLimit: number;
}

export interface FeatureSwitches {
  autoCompact: boolean;
  reactiveCompact: boolean;
  contextCollapse: boolean;
  historySnip: boolean;
  microcompact: boolean;
  toolResultBudget: boolean;
  tokenBudget: boolean;
  maxOutputTokensCap: boolean;
  streamingToolExecution: boolean;
  toolUseSummaries: boolean;
  /**
   * Strip thinking blocks (their signatures are bound to a model) from the history before retrying on the fallback
   * model. Off by default, as in Claude Code's public build (docs/loop.md §4.5).
   */
  stripThinkingOnFallback: boolean;
}

export interface Limits {
  /** Recoveries after a `max_tokens` stop between two real turns (docs/loop.md §9.2). */
  maxOutputTokensRecovery: number;
  /** Consecutive autocompact failures before the circuit breaker opens (docs/loop.md §9.3). */
  autocompactMaxFailures: number;
  /** Concurrency-safe tools run at once. */
  maxToolConcurrency: number;
  /** `max_tokens` when the output cap is on. */
  cappedMaxTokens: number;
  /** `max_tokens` after an escalation. */
  escalatedMaxTokens: number;
  /** Extension (docs/loop.md §9.10): stop-hook blocking continuations in one run before the loop stops. */
  maxStopHookBlocking: number;
  /**
   * Extension (docs/loop.md §9.10): model calls in one run before the loop stops. One rule, so that the default
   * never ends a run `maxTurns` allows: when a run sets `maxTurns` and its config overrides leave this unset, the
   * run's cap is the larger of this default and `maxTurns` × the most calls one turn can make
   * (`modelCallsPerTurn`). A value given (a full config gives one) is used as is.
   */
  maxModelCalls: number;
  /**
   * Extension `maxBudgetUsd`: the main loop's spend cap in USD (0 = off, the original). Before a model call that
   * could take the spend past it (spend so far + the worst call, `src/rules/call-cost.ts`), the run ends
   * `max_budget_usd`.
   */
  maxCostUsd: number;
}

export interface RetryPolicy {
  /** Retries of a failed model request (not overloaded) before it becomes `model_error`. */
  maxRetries: number;
  /** Consecutive 529 answers before falling back to `fallbackModel`. */
  maxOverloadedRetries: number;
  /** First backoff delay; doubled per retry. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay. */
  maxDelayMs: number;
}

export interface ContextThresholdConfig {
  /** Most output tokens reserved out of the context window. */
  maxOutputReservation: number;
  /** Autocompact fires this many tokens below the effective window. */
  autocompactBuffer: number;
  /** The blocking limit lies this many tokens below the effective window. */
  blockingBuffer: number;
  /**
   * Measure the blocking limit from the whole context window instead of the effective one (Claude Code 2.1.x
   * releases up to at least 2.1.39 did; see `src/claude/version-constants.ts`). Default false, as the reference.
   */
  blockingFromWindow: boolean;
  /** Warning and error levels lie this far below their threshold. */
  warningBuffer: number;
}

export interface ToolResultBudgetConfig {
  perResultChars: number;
  perMessageChars: number;
  previewChars: number;
}

export interface MicrocompactConfig {
  /** Compactable tool results kept verbatim. */
  keepRecent: number;
  /** Idle gap after which old results are cleared (the prompt cache has expired by then). */
  idleGapMs: number;
  /** Tool names whose results may be cleared. */
  compactableTools: string[];
}

export interface SnipConfig {
  /** Snip when the estimated tokens exceed this share of the autocompact threshold. */
  triggerRatio: number;
  /** Keep at least this many of the most recent messages. */
  keepRecentMessages: number;
}

/**
 * Where the model adapter puts `cache_control` breakpoints (docs/fake-api.md). Claude Code's placement is the
 * default: the system prompt and the last message, so each request reads the previous one's prefix from the cache.
 * Off: `{system: false, lastMessages: 0}`.
 */
export interface PromptCachingConfig {
  /** A breakpoint on the last system block (it covers the tools and the system prompt). */
  system: boolean;
  /** Breakpoints on the last block of this many of the last messages (the API allows 4 in all). */
  lastMessages: number;
  /** Cache lifetime: '5m' (the API's default) or '1h'. */
  ttl: string;
}

export interface LoopConfig {
  sessionId: string;
  model: string;
  models: Record<string, ModelInfo>;
  /** Used for a model missing from `models`. */
  defaultModelInfo: ModelInfo;
  features: FeatureSwitches;
  limits: Limits;
  retry: RetryPolicy;
  thresholds: ContextThresholdConfig;
  toolResultBudget: ToolResultBudgetConfig;
  microcompact: MicrocompactConfig;
  snip: SnipConfig;
  /** Per-tool timeout of the interpreter, in ms (0 = none). */
  toolTimeoutMs: number;
  /** The context window of every model, in tokens: overrides `models` and `defaultModelInfo` (0 = not set). */
  contextWindow: number;
  /** Token-budget continuation stops at this share of the budget (docs/loop.md §8). */
  tokenBudgetCompletionRatio: number;
  /** Both deltas below this count as diminishing returns (docs/loop.md §8). */
  tokenBudgetDiminishingDelta: number;
  promptCaching: PromptCachingConfig;
}

export const DEFAULT_MODEL = 'claude-sonnet-4-6';

/** Model aliases, resolved as claude 2.1.334 resolves them (`--model opus` asks for `claude-opus-5-5`). */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-5-5',
  haiku: 'claude-haiku-5-5',
};

/** The model an alias stands for; any other name unchanged. */
export function resolveModelAlias(model: string): string {
  return MODEL_ALIASES[model] ?? model;
}

export const DEFAULT_CONFIG: LoopConfig = {
  sessionId: 'session',
  model: DEFAULT_MODEL,
  // The original's output table (Claude Code 2.1.88 `utils/context.ts:149-209`, `getModelMaxOutputTokens`): default
  // `max_tokens` and upper limit per model family; every window 200,000 (`utils/context.ts:9`). A dated or
  // provider-prefixed name takes the longest family it contains (`modelInfo`).
  models: {
    // The 5.5 family: claude 2.1.334 asks for 128,000 output tokens on each (seen offline, test/agent-sdk).
    'claude-opus-5-5': { contextWindow: 200_000, maxOutputTokens: 128_000, maxOutputTokensUpperLimit: 128_000 },
    'claude-sonnet-5-5': { contextWindow: 200_000, maxOutputTokens: 128_000, maxOutputTokensUpperLimit: 128_000 },
    'claude-haiku-5-5': { contextWindow: 200_000, maxOutputTokens: 128_000, maxOutputTokensUpperLimit: 128_000 },
    'claude-opus-4-6': { contextWindow: 200_000, maxOutputTokens: 64_000, maxOutputTokensUpperLimit: 128_000 },
    'claude-sonnet-4-6': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 128_000 },
    'claude-opus-4-5': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
    'claude-sonnet-4-5': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
    'claude-sonnet-4': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
    'claude-haiku-4-5': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
    'claude-opus-4-1': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 32_000 },
    'claude-opus-4': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 32_000 },
    'claude-3-7-sonnet': { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
    'claude-3-5-sonnet': { contextWindow: 200_000, maxOutputTokens: 8_192, maxOutputTokensUpperLimit: 8_192 },
    'claude-3-5-haiku': { contextWindow: 200_000, maxOutputTokens: 8_192, maxOutputTokensUpperLimit: 8_192 },
    'claude-3-opus': { contextWindow: 200_000, maxOutputTokens: 4_096, maxOutputTokensUpperLimit: 4_096 },
    'claude-3-sonnet': { contextWindow: 200_000, maxOutputTokens: 8_192, maxOutputTokensUpperLimit: 8_192 },
    'claude-3-haiku': { contextWindow: 200_000, maxOutputTokens: 4_096, maxOutputTokensUpperLimit: 4_096 },
  },
  defaultModelInfo: { contextWindow: 200_000, maxOutputTokens: 32_000, maxOutputTokensUpperLimit: 64_000 },
  features: {
    autoCompact: true,
    reactiveCompact: true,
    contextCollapse: false,
    historySnip: false,
    microcompact: true,
    toolResultBudget: true,
    tokenBudget: true,
    maxOutputTokensCap: false,
    streamingToolExecution: true,
    toolUseSummaries: false,
    stripThinkingOnFallback: false,
  },
  limits: {
    maxOutputTokensRecovery: 3,
    autocompactMaxFailures: 3,
    maxToolConcurrency: 10,
    cappedMaxTokens: 8_000,
    escalatedMaxTokens: 64_000,
    maxStopHookBlocking: 25,
    maxModelCalls: 1_000,
    maxCostUsd: 0,
  },
  retry: { maxRetries: 10, maxOverloadedRetries: 3, baseDelayMs: 500, maxDelayMs: 32_000 },
  thresholds: { maxOutputReservation: 20_000, autocompactBuffer: 13_000, blockingBuffer: 3_000, blockingFromWindow: false, warningBuffer: 20_000 },
  toolResultBudget: { perResultChars: 50_000, perMessageChars: 200_000, previewChars: 2_000 },
  microcompact: {
    keepRecent: 5,
    idleGapMs: 60 * 60 * 1000,
    // The original's set (Claude Code 2.1.88 `services/compact/microCompact.ts:41-49`): Read, the shell tools
    // (`utils/shell/shellToolUtils.ts:6`: Bash, PowerShell), Grep, Glob, WebSearch, WebFetch, Edit, Write.
    compactableTools: ['Read', 'Bash', 'PowerShell', 'Grep', 'Glob', 'WebSearch', 'WebFetch', 'Edit', 'Write'],
  },
  snip: { triggerRatio: 0.9, keepRecentMessages: 20 },
  toolTimeoutMs: 0,
  contextWindow: 0,
  tokenBudgetCompletionRatio: 0.9,
  tokenBudgetDiminishingDelta: 500,
  promptCaching: { system: true, lastMessages: 1, ttl: '5m' },
};

/** Deep partial, for overrides. Groups (`features`, `limits`, ...) merge one level deep; arrays are replaced. */
export type ConfigOverrides = {
  [K in keyof LoopConfig]?: LoopConfig[K] extends Array<unknown>
    ? LoopConfig[K]
    : LoopConfig[K] extends object
      ? Partial<LoopConfig[K]>
      : LoopConfig[K];
};

/**
 * Builds a full config from overrides: each group (`features`, `limits`, ...) is merged one level deep over the
 * defaults; `models` is merged by model name.
 */
export function resolveConfig(overrides: ConfigOverrides = {}, base: LoopConfig = DEFAULT_CONFIG): LoopConfig {
  return mergeConfigGroups<LoopConfig>(base, overrides);
}

/**
 * `overrides` over `base` (a full config or other overrides): each group of `base` (`features`, `limits`, ...) is
 * merged one level deep, anything else replaced; an undefined value changes nothing.
 *
 * A resolved config shares the groups it does not change with `base`, by reference (configs are never written to),
 * and an override that is `base`'s own group object changes nothing either: a full config given as overrides (the
 * config of a previous run, say) keeps the defaults' group objects. Besides saving the copies, this keeps the
 * shapes of the groups that every turn reads alive between runs: a copy's shape dies with the run that made it,
 * and with it, at the next full GC, the optimized code of every function that read it (docs/architecture.md,
 * "Shapes that outlive a run").
 */
export function mergeConfigGroups<T extends object>(base: T, overrides: ConfigOverrides): T {
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = (base as Record<string, unknown>)[key];
    const isGroup = current !== null && typeof current === 'object' && !Array.isArray(current);
    merged[key] = isGroup && value !== current ? { ...(current as object), ...(value as object) } : value;
  }
  return merged as T;
}

/**
 * A model's row: its exact name, else the longest family name it contains (`claude-opus-4-1-20250805` →
 * `claude-opus-4-1`, as the original matches families), else `fallback`.
 */
export function lookupModelInfo(models: Record<string, ModelInfo>, fallback: ModelInfo, model: string): ModelInfo {
  const exact = models[model];
  if (exact) return exact;
  let best: string | undefined;
  for (const family of Object.keys(models)) if (model.includes(family) && (best === undefined || family.length > best.length)) best = family;
  return best === undefined ? fallback : models[best];
}

export function modelInfo(config: LoopConfig, model: string): ModelInfo {
  const info = lookupModelInfo(config.models, config.defaultModelInfo, model);
  return config.contextWindow > 0 ? { ...info, contextWindow: config.contextWindow } : info;
}
