/**
 * What one model call of the main loop can cost at most, and what a reported usage cost: the arithmetic shared by
 * the spend cap (`limits.maxCostUsd`, Extension `maxBudgetUsd`) and the bounds (docs/bounds.md "Tokens" and
 * "Cost"). Pure.
 *
 * Invariants: the worst call asks for the largest `max_tokens` any request of the run may carry and sends the
 * largest prompt the API (or the blocking check) lets through, billed at the dearest input rate (a cache write);
 * a model without a known price costs Infinity.
 */
import { priceOf } from '../config/prices.ts';
import type { LoopConfig } from '../config/config.ts';
import type { LoopParams } from '../data/state.ts';
import { contextThresholds, defaultMaxOutputTokens } from './thresholds.ts';

/** The params a call's cost depends on. */
export type CallCostParams = Pick<LoopParams, 'fallbackModel' | 'querySource' | 'maxOutputTokensOverride'>;

/** Every model the main loop may call: the configured one and the fallback. */
export function runModels(config: LoopConfig, params: CallCostParams): string[] {
  return params.fallbackModel && params.fallbackModel !== config.model ? [config.model, params.fallbackModel] : [config.model];
}

/** The largest `max_tokens` of one request: a model's default, the escalation (output cap on), the caller's override. */
export function maxOutputPerCall(config: LoopConfig, params: CallCostParams): number {
  const defaults = runModels(config, params).map((model) => defaultMaxOutputTokens(model, config));
  const escalated = config.features.maxOutputTokensCap ? [config.limits.escalatedMaxTokens] : [];
  const override = params.maxOutputTokensOverride === undefined ? [] : [params.maxOutputTokensOverride];
  return Math.max(...defaults, ...escalated, ...override);
}

/**
 * The largest prompt of one request: the context window (the API refuses a longer prompt and bills nothing), or
 * the blocking limit when the blocking check applies to every request (docs/loop.md §4.4). It does not after an
 * autocompact in the same iteration (the compacted history is not checked), so autocompact that may run counts
 * as the window too.
 */
export function maxInputPerCall(config: LoopConfig, params: CallCostParams): { tokens: number; rule: string } {
  const { features } = config;
  const source = params.querySource ?? 'sdk';
  const compactSource = source === 'compact' || source === 'session_memory';
  // With autocompact on, either the check is off (reactive compact or collapse with it) or autocompact may run.
  const skipsCheck = compactSource || features.autoCompact;
  const per = runModels(config, params).map((model) => {
    const t = contextThresholds(model, config);
    return skipsCheck ? t.contextWindow : Math.min(t.contextWindow, t.blocking);
  });
  return { tokens: Math.max(...per), rule: skipsCheck ? 'the context window (the blocking check may not apply)' : 'the blocking limit' };
}

/** USD per input token (the dearest of input and cache write) and per output token over `models`; null if one has no price. */
export function worstTokenPrices(models: readonly string[], table?: Parameters<typeof priceOf>[1]): { input: number; output: number } | null {
  let input = 0;
  let output = 0;
  for (const model of models) {
    const price = priceOf(model, table);
    if (!price) return null;
    input = Math.max(input, price.inputPerMTok, price.cacheWritePerMTok);
    output = Math.max(output, price.outputPerMTok);
  }
  return { input: input / 1_000_000, output: output / 1_000_000 };
}

/** The most one main-loop model call can cost, in USD (Infinity when a model's price is unknown). */
export function worstCallCostUsd(config: LoopConfig, params: CallCostParams, table?: Parameters<typeof priceOf>[1]): number {
  const price = worstTokenPrices(runModels(config, params), table);
  if (!price) return Infinity;
  return maxInputPerCall(config, params).tokens * price.input + maxOutputPerCall(config, params) * price.output;
}

/** What a reported usage cost (0 for a model without a known price: the spend cap then stops before the call). */
export { usageCostUsd } from '../config/prices.ts';
