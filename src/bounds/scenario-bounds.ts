/**
 * The config and params a scenario file's run uses, as `computeBounds` and `exploreLoop` take them: the config
 * resolved as `query()` resolves it (so the model-call cap grows with `maxTurns` exactly as in the run).
 */
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import { DEFAULT_TREE_MODEL_CALLS } from '../tools/child-runs.ts';
import { resolveRunConfig } from '../drivers/resolve-run.ts';
import type { LoopParams } from '../data/state.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import type { BoundsOptions } from './compute-bounds.ts';

export interface BoundsInput {
  overrides: ConfigOverrides;
  config: LoopConfig;
  params: LoopParams;
  options: BoundsOptions;
}

const PROMPT: LoopParams['messages'] = [{ type: 'user', uuid: 'prompt', message: { role: 'user', content: 'Work on the task.' } }];

/** From `--config` / `--params` overrides (what `replay`'s what-if takes). */
export function boundsInputOf(overrides: ConfigOverrides, params: Omit<LoopParams, 'messages'>, options: BoundsOptions = {}): BoundsInput {
  return { overrides, config: resolveRunConfig(overrides, params.maxTurns), params: { ...params, messages: PROMPT }, options };
}

/** From a scenario file: its config, its params, and the agent tree's budget when it has agents. */
export function boundsInputOfScenario(scenario: Scenario): BoundsInput {
  const p = scenario.params;
  const params: Omit<LoopParams, 'messages'> = {
    ...(p.maxTurns === undefined ? {} : { maxTurns: p.maxTurns }),
    ...(p.fallbackModel === undefined ? {} : { fallbackModel: p.fallbackModel }),
    ...(p.tokenBudget === undefined ? {} : { tokenBudget: p.tokenBudget }),
    ...(p.querySource === undefined ? {} : { querySource: p.querySource }),
    ...(p.maxOutputTokensOverride === undefined ? {} : { maxOutputTokensOverride: p.maxOutputTokensOverride }),
  };
  return boundsInputOf(scenario.config, params, scenario.agents.length > 0 ? { agentTreeModelCalls: DEFAULT_TREE_MODEL_CALLS } : {});
}
