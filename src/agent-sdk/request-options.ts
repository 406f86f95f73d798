/**
 * What the SDK's request options become in each API request, as claude 2.1.334 sends them (seen offline):
 * `--thinking adaptive` → `thinking: {type: 'adaptive'}`, `--thinking disabled` → `{type: 'disabled'}`;
 * `--max-thinking-tokens N` (the SDK's `thinking: {type: 'enabled', budgetTokens}` or `maxThinkingTokens`) →
 * `{type: 'adaptive'}` on a model that thinks adaptively (claude ignores the budget there), else `{type: 'enabled',
 * budget_tokens: N}`; `--task-budget N` → `output_config.task_budget` on every request (the loop's `taskBudget`);
 * `--effort L` → `output_config.effort` on a model that takes effort (the loop's `effort`; `effortParam`).
 * Model aliases resolve through the model table (src/config/config.ts). Pure.
 */
import type { ThinkingParam } from '../data/state.ts';
import { EFFORT_LEVELS, type EffortLevel } from '../config/model-effort.ts';
import { HeadlessArgsError } from './headless-args.ts';

/** Families that take adaptive thinking (claude sends it for claude-sonnet-4-6 whatever budget is given). */
const ADAPTIVE_FAMILIES = ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

export function thinkingParam(options: { thinking?: string; maxThinkingTokens?: number }, model: string): ThinkingParam | undefined {
  if (options.thinking === 'disabled') return { type: 'disabled' };
  if (options.maxThinkingTokens !== undefined) {
    return ADAPTIVE_FAMILIES.some((family) => model.includes(family)) ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: options.maxThinkingTokens };
  }
  if (options.thinking === 'adaptive' || options.thinking === 'enabled') return { type: 'adaptive' };
  if (options.thinking !== undefined) throw new HeadlessArgsError(`--thinking expects one of adaptive, enabled, disabled, got '${options.thinking}'`);
  return undefined;
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
