/**
 * What the SDK's request options become in each API request, as claude 2.1.334 sends them (seen offline):
 * `--thinking adaptive` → `thinking: {type: 'adaptive'}`, `--thinking disabled` → `{type: 'disabled'}`;
 * `--max-thinking-tokens N` (the SDK's `thinking: {type: 'enabled', budgetTokens}` or `maxThinkingTokens`) →
 * `{type: 'adaptive'}` on a model that thinks adaptively (claude ignores the budget there), else `{type: 'enabled',
 * budget_tokens: N}`; each request's model decides (a fallback model's too: `withRequestThinking`); `--task-budget N` → `output_config.task_budget` on every request (the loop's `taskBudget`);
 * `--effort L` → `output_config.effort` on a model that takes effort (the loop's `effort`; `effortParam`).
 * Model aliases resolve through the model table (src/config/config.ts). Pure.
 */
import type { ThinkingDisplay, ThinkingParam } from '../data/state.ts';
import type { ModelCaller } from '../data/deps.ts';
import { EFFORT_LEVELS, type EffortLevel } from '../config/model-effort.ts';
import { HeadlessArgsError } from './headless-args.ts';

/** Families that take adaptive thinking (claude sends it for claude-sonnet-4-6 whatever budget is given). */
const ADAPTIVE_FAMILIES = ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

/**
 * The request's `thinking` for `model`. On a model without adaptive thinking, `adaptive` (or `enabled` with no
 * budget) is sent as claude 2.1.334 sends it after a fallback to claude-haiku-4-5 (probed,
 * test/agent-sdk/programs/conf-fallback-thinking.ts): `{type: 'enabled', budget_tokens: max_tokens - 1}`; without
 * `maxTokens` (the start-up check of the flags) it stays `adaptive`.
 */
export function thinkingParam(options: { thinking?: string; maxThinkingTokens?: number; thinkingDisplay?: string }, model: string, maxTokens?: number): ThinkingParam | undefined {
  const display = thinkingDisplay(options.thinkingDisplay);
  const param = thinkingOfModel(options, model, maxTokens);
  return param && param.type !== 'disabled' && display ? { ...param, display } : param;
}

function thinkingOfModel(options: { thinking?: string; maxThinkingTokens?: number }, model: string, maxTokens?: number): ThinkingParam | undefined {
  if (options.thinking === 'disabled') return { type: 'disabled' };
  const adaptive = ADAPTIVE_FAMILIES.some((family) => model.includes(family));
  if (options.maxThinkingTokens !== undefined) return adaptive ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: options.maxThinkingTokens };
  if (options.thinking === 'adaptive' || options.thinking === 'enabled') {
    return adaptive || maxTokens === undefined ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: maxTokens - 1 };
  }
  if (options.thinking !== undefined) throw new HeadlessArgsError(`--thinking expects one of adaptive, enabled, disabled, got '${options.thinking}'`);
  return undefined;
}

/**
 * `--thinking-display`, as claude 2.1.334 sends it (probed, test/agent-sdk/programs/conf-fallback-thinking.ts):
 * `summarized` as given, `omitted` as `updates` (what claude sends by default). Another value is bad input.
 */
function thinkingDisplay(value: string | undefined): ThinkingDisplay | undefined {
  if (value === undefined) return undefined;
  if (value === 'summarized') return 'summarized';
  if (value === 'omitted') return 'updates';
  throw new HeadlessArgsError(`--thinking-display expects one of summarized, omitted, got '${value}'`);
}

/**
 * The model caller with each request's `thinking` chosen for that request's model (a fallback model's too), as
 * `output_config.effort` follows the request's model; the run's `thinking` param is the session model's.
 */
export function withRequestThinking(callModel: ModelCaller, thinking: (model: string, maxTokens: number) => ThinkingParam | undefined): ModelCaller {
  return (request, options) => {
    const chosen = thinking(request.model, request.max_tokens);
    const { thinking: _sessionModels, ...rest } = options;
    return callModel(request, chosen ? { ...rest, thinking: chosen } : rest);
  };
}

/**
 * `--effort`: a level of `EFFORT_LEVELS`, else bad input. Each request carries it as its model takes it
 * (src/config/model-effort.ts: none on a model without effort, also after a fallback to one). Without `--effort`
 * claude sends its default (`high`, `medium` on the 5.5 family); turnloop sends none then (the API's default
 * applies: Extension `sdkThinkingOnlyWhenAsked`).
 */
export function effortParam(effort: string | undefined): EffortLevel | undefined {
  if (effort === undefined) return undefined;
  if (!(EFFORT_LEVELS as readonly string[]).includes(effort)) throw new HeadlessArgsError(`--effort expects one of ${EFFORT_LEVELS.join(', ')}, got '${effort}'`);
  return effort as EffortLevel;
}
