/**
 * `computeBounds(config, params)`: the most one loop run can ever do under a config, for every environment (any
 * model answers, tool outcomes, hook answers, compaction outcomes, aborts). Pure arithmetic over config and
 * params; the rules are in docs/bounds.md and each figure carries the rule it follows from (`because`).
 *
 * Invariants:
 * - A figure is an upper bound, not an estimate: `exploreLoop` checks every reachable state against it, and a
 *   witness scenario (`boundsWitness`) reaches the model-call figure exactly.
 * - `Infinity` means no cap bounds that count; `finiteWith` then names the switch that would.
 * - The main loop's model calls never exceed `limits.maxModelCalls` (Extension `maxModelCalls`): the structural
 *   figure (what the other caps allow) is reported beside the capped one.
 */
import { modelInfo, type LoopConfig } from '../config/config.ts';
import type { ModelPrice } from '../config/prices.ts';
import { maxInputPerCall, maxOutputPerCall, runModels as modelsOf, worstTokenPrices } from '../rules/call-cost.ts';
import type { LoopParams } from '../data/state.ts';

/** The params a bound depends on (the rest of `LoopParams` changes no count). */
export type BoundsParams = Pick<LoopParams, 'maxTurns' | 'fallbackModel' | 'tokenBudget' | 'querySource' | 'maxOutputTokensOverride'>;

export interface BoundsOptions {
  /** Model calls the agent tree may make (`QueryOptions.agents.maxModelCalls`); 0 or absent: the run has no agent tools. */
  agentTreeModelCalls?: number;
  /** Prices by model-id prefix, over the published list (`src/config/prices.ts`). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** How many times each Continue can happen in one run. */
export interface ContinueBounds {
  next_turn: number;
  stop_hook_blocking: number;
  token_budget_continuation: number;
  reactive_compact_retry: number;
  max_output_tokens_recovery: number;
  max_output_tokens_escalate: number;
  collapse_drain_retry: number;
}

export interface LoopBounds {
  /** Every model call: the main loop's, compaction calls and subagents' calls. */
  modelCalls: number;
  /** The main loop's `call_model` effects (fallback retries included), after `limits.maxModelCalls`. */
  mainModelCalls: number;
  /** The main loop's calls the other caps allow, before `limits.maxModelCalls` is applied. */
  structuralModelCalls: number;
  /** Forked compaction calls (autocompact and reactive compact), one request each. */
  compactionCalls: number;
  /** Calls of the agent tree (subagents and theirs). */
  subagentCalls: number;
  /** HTTP requests: each model call is one attempt, `retry.maxRetries` retries and one non-streaming retry. */
  httpAttempts: number;
  /** The sum of every request's `max_tokens`. */
  outputTokens: number;
  /** The sum of every request's largest possible prompt. */
  inputTokens: number;
  /** USD at the worst price of every model the run may use (input billed as cache writes); Infinity if a price is unknown. */
  costUsd: number;
  /** The main loop's share of `costUsd`: at most `limits.maxCostUsd` when the spend cap is on. */
  mainCostUsd: number;
  continues: ContinueBounds;
  /** The rules, one per figure, in the order the figures are computed. */
  because: string[];
  /** For each infinite count, the switch that makes it finite. */
  finiteWith: string[];
}

const fmt = (n: number) => (Number.isFinite(n) ? String(n) : '∞');

/** 0·∞ is 0 here: a count that cannot happen once does not happen infinitely often. */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

/**
 * The most token-budget continuations of one run (docs/loop.md §8). After the third, a continuation needs this
 * delta or the previous one to reach `delta`, so at least every other one adds `delta` output tokens, and all of
 * them stay under `ratio × budget`: at most `k = ceil(ratio·budget / delta) − 1` such deltas, `2k + 3` in all.
 */
export function tokenBudgetContinuations(config: LoopConfig, params: BoundsParams): number {
  const budget = params.tokenBudget;
  const isSubagent = (params.querySource ?? 'sdk').startsWith('agent:');
  if (!config.features.tokenBudget || budget === undefined || budget <= 0 || isSubagent) return 0;
  const ceiling = config.tokenBudgetCompletionRatio * budget;
  if (ceiling <= 0) return 0;
  const delta = config.tokenBudgetDiminishingDelta;
  if (delta <= 0) return Infinity;
  const k = Math.max(0, Math.ceil(ceiling / delta) - 1);
  return 2 * k + 3;
}

/**
 * The Continue counts (docs/bounds.md "Continues"). The recovery count and the reactive-compact flag are reset
 * by `next_turn` and `token_budget_continuation` (the count also by `stop_hook_blocking`); every Continue but an
 * escalation clears the output override, and a drain never follows a drain.
 */
export function continueBounds(config: LoopConfig, params: BoundsParams): { continues: ContinueBounds; because: string[]; finiteWith: string[] } {
  const because: string[] = [];
  const finiteWith: string[] = [];
  const { features, limits } = config;
  const maxTurns = params.maxTurns ?? 0;
  const nextTurn = maxTurns > 0 ? maxTurns - 1 : Infinity;
  because.push(maxTurns > 0 ? `next_turn ≤ maxTurns − 1 = ${nextTurn}` : 'next_turn: unbounded (no maxTurns)');
  if (maxTurns <= 0) finiteWith.push('next_turn: set params.maxTurns');
  const blocking = limits.maxStopHookBlocking;
  because.push(`stop_hook_blocking ≤ limits.maxStopHookBlocking = ${blocking}`);
  const budget = tokenBudgetContinuations(config, params);
  because.push(`token_budget_continuation ≤ ${fmt(budget)} (2·(ceil(ratio·budget/delta) − 1) + 3, 0 without a budget)`);
  if (!Number.isFinite(budget)) finiteWith.push('token_budget_continuation: set tokenBudgetDiminishingDelta > 0');
  const resets = 1 + nextTurn + budget;
  const reactive = features.reactiveCompact ? resets : 0;
  because.push(`reactive_compact_retry ≤ 1 per segment between next_turn/token_budget resets = ${fmt(reactive)}`);
  const recovery = times(limits.maxOutputTokensRecovery, resets + blocking);
  because.push(`max_output_tokens_recovery ≤ limits.maxOutputTokensRecovery × (1 + next_turn + token_budget + stop_hook_blocking) = ${fmt(recovery)}`);
  const base = nextTurn + blocking + budget + reactive + recovery;
  let escalate = 0;
  let drain = 0;
  if (features.maxOutputTokensCap && features.contextCollapse) {
    // An escalation clears nothing, a drain clears the override: escalate, drain, escalate... alternate forever.
    escalate = Infinity;
    drain = Infinity;
    because.push('max_output_tokens_escalate and collapse_drain_retry: unbounded (each can follow the other)');
    finiteWith.push('escalate/drain alternation: turn off features.maxOutputTokensCap or features.contextCollapse (limits.maxModelCalls still caps calls)');
  } else if (features.maxOutputTokensCap) {
    escalate = 1 + base;
    because.push(`max_output_tokens_escalate ≤ 1 + every other Continue = ${fmt(escalate)}`);
  } else if (features.contextCollapse) {
    drain = 1 + base;
    because.push(`collapse_drain_retry ≤ 1 + every other Continue (never twice in a row) = ${fmt(drain)}`);
  }
  const continues: ContinueBounds = {
    next_turn: nextTurn,
    stop_hook_blocking: blocking,
    token_budget_continuation: budget,
    reactive_compact_retry: reactive,
    max_output_tokens_recovery: recovery,
    max_output_tokens_escalate: escalate,
    collapse_drain_retry: drain,
  };
  return { continues, because, finiteWith };
}

/**
 * Upper bounds on what one run can do under `config` and `params`, each with its rule. This is a pure function.
 *
 * @example
 * const b = computeBounds(resolveConfig({ limits: { maxStopHookBlocking: 2 } }), { maxTurns: 3 });
 * b.mainModelCalls; // the most call_model effects the run can make
 */
export function computeBounds(config: LoopConfig, params: BoundsParams = {}, options: BoundsOptions = {}): LoopBounds {
  const { continues, because, finiteWith } = continueBounds(config, params);
  const continueTotal = Object.values(continues).reduce((a, b) => a + b, 0);
  const fallback = modelsOf(config, params).length > 1 ? 1 : 0;
  const structural = 1 + continueTotal + fallback;
  because.push(`main calls ≤ 1 + Continues + fallback retry (${fallback}) = ${fmt(structural)}`);
  const main = Math.min(structural, config.limits.maxModelCalls);
  because.push(`main calls ≤ limits.maxModelCalls = ${config.limits.maxModelCalls} → ${fmt(main)}`);
  const iterations = Math.max(0, main - fallback);
  const source = params.querySource ?? 'sdk';
  const compactSource = source === 'compact' || source === 'session_memory';
  const autocompacts = config.features.autoCompact && !config.features.contextCollapse && !compactSource ? iterations : 0;
  const compactionCalls = autocompacts + Math.min(continues.reactive_compact_retry + 1, iterations);
  because.push(`compaction calls ≤ one autocompact per iteration (${autocompacts}) + reactive compacts (≤ ${Math.min(continues.reactive_compact_retry + 1, iterations)})`);
  const subagentCalls = options.agentTreeModelCalls ?? 0;
  if (subagentCalls > 0) because.push(`subagent calls ≤ the agent tree's budget = ${subagentCalls}`);
  const modelCalls = main + compactionCalls + subagentCalls;
  const attemptsPerCall = config.retry.maxRetries + 2;
  const httpAttempts = times(modelCalls, attemptsPerCall);
  because.push(`HTTP attempts ≤ model calls × (1 + retry.maxRetries + 1 non-streaming retry) = ${fmt(httpAttempts)}`);
  const outPerCall = maxOutputPerCall(config, params);
  const compactionOut = modelInfo(config, config.model).maxOutputTokensUpperLimit;
  const outputTokens = times(main, outPerCall) + times(compactionCalls, compactionOut);
  because.push(`output tokens ≤ main calls × ${outPerCall} (largest max_tokens) + compaction calls × ${compactionOut}`);
  const input = maxInputPerCall(config, params);
  const window = modelInfo(config, config.model).contextWindow;
  const inputTokens = times(main, input.tokens) + times(compactionCalls, window);
  because.push(`input tokens ≤ main calls × ${input.tokens} (${input.rule}) + compaction calls × ${window}`);
  const price = worstTokenPrices(modelsOf(config, params), options.prices);
  if (!price) finiteWith.push(`cost: add a price for ${modelsOf(config, params).join(', ')}`);
  const priced = (input: number, output: number) => (price ? times(input, price.input) + times(output, price.output) : Infinity);
  let mainCostUsd = priced(times(main, input.tokens), times(main, outPerCall));
  const cap = config.limits.maxCostUsd;
  if (cap > 0 && cap < mainCostUsd) {
    // A call is made only while spend + the worst call ≤ cap, and no call costs more than the worst one.
    mainCostUsd = cap;
    because.push(`main-loop cost ≤ limits.maxCostUsd = ${cap} USD (a call is made only while spend + the worst call ≤ the cap)`);
  }
  const compactionCostUsd = priced(times(compactionCalls, window), times(compactionCalls, compactionOut));
  const subagentCostUsd = priced(times(subagentCalls, window), times(subagentCalls, compactionOut));
  const costUsd = mainCostUsd + compactionCostUsd + subagentCostUsd;
  because.push(`cost ≤ tokens × the dearest input rate (cache write) and the output rate: main ${mainCostUsd.toFixed(4)} + compaction ${compactionCostUsd.toFixed(4)} + subagents ${subagentCostUsd.toFixed(4)} = ${costUsd.toFixed(4)} USD`);
  return {
    modelCalls,
    mainModelCalls: main,
    structuralModelCalls: structural,
    compactionCalls,
    subagentCalls,
    httpAttempts,
    outputTokens,
    inputTokens,
    costUsd,
    mainCostUsd,
    continues,
    because,
    finiteWith,
  };
}
