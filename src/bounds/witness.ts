/**
 * The witness of the model-call bound: a run that makes as many main-loop model calls as `computeBounds` says
 * is possible, built by an environment that always picks the answer which opens one more call (docs/bounds.md
 * "Witness"), and written as a scenario (`turnloop bounds --witness FILE`, then `turnloop simulate FILE`).
 *
 * The policy, first match wins: fall back once; escalate the output cap; drain a collapse; recover from
 * `max_tokens`; compact reactively; call a tool while turns remain; else answer, and let a stop hook block
 * while its cap allows. Compactions succeed, drains commit. Token-budget continuations follow from the replies'
 * output tokens, so with a token budget the witness may fall short of the bound (it says by how much).
 */
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { answerEvents, type AnswerLabel, type Waiting } from './abstract-answers.ts';
import { computeBounds } from './compute-bounds.ts';
import { pathToScenario, type ScenarioJson } from './path-scenario.ts';
import { engineStepper, type Stepper } from './stepper.ts';
import { NOTHING_PENDING, waitAfter } from './waiting.ts';

export interface Witness {
  scenario: ScenarioJson;
  /** Main-loop model calls the witness makes. */
  modelCalls: number;
  /** The bound it is a witness for. */
  bound: number;
  path: AnswerLabel[];
}

function modelAnswer(state: LoopState, config: LoopConfig): AnswerLabel {
  const c = state.context;
  const { features, limits } = config;
  const fallback = c.params.fallbackModel;
  if (fallback !== undefined && fallback !== c.currentModel) return 'model:overloaded';
  if (features.maxOutputTokensCap && c.maxOutputTokensOverride === null) return 'model:max_tokens';
  if (features.contextCollapse && c.transition?.reason !== 'collapse_drain_retry') return 'model:prompt_too_long';
  if (c.maxOutputTokensRecoveryCount < limits.maxOutputTokensRecovery) return 'model:max_tokens';
  if (features.reactiveCompact && !c.hasAttemptedReactiveCompact) return 'model:prompt_too_long';
  const maxTurns = c.params.maxTurns ?? 0;
  if (maxTurns === 0 || c.turnCount < maxTurns) return 'model:tool';
  return 'model:text';
}

function choose(waiting: Waiting, state: LoopState, config: LoopConfig): AnswerLabel {
  switch (waiting.kind) {
    case 'model':
      return modelAnswer(state, config);
    case 'stop_hooks':
      return state.context.stopHookBlockingCount < config.limits.maxStopHookBlocking ? 'hooks:block' : 'hooks:allow';
    case 'tools':
      return 'tools:ok';
    case 'autocompact':
      return 'autocompact:ok';
    case 'reactive':
      return 'reactive:ok';
    case 'drain':
      return 'drain:committed';
    case 'layer':
      return 'layer';
    case 'attachments':
      return 'attachments:none';
  }
}

/**
 * The witness run of the model-call bound under `config` (the run's resolved config) and `params`;
 * `overrides` are written into the scenario so that `simulate` resolves the same config.
 */
export function boundsWitness(config: LoopConfig, overrides: ConfigOverrides, params: LoopParams, stepper: Stepper = engineStepper()): Witness {
  const bound = computeBounds(config, params).mainModelCalls;
  const path: AnswerLabel[] = [];
  const first = stepper.initial(params, config);
  let state = first.state;
  let wait = waitAfter(first.effects, NOTHING_PENDING);
  // Far above any run the caps allow: a guard against a mutant machine that never stops.
  const limit = 20 * (Number.isFinite(bound) ? bound : 10_000) + 100;
  while (state.status !== 'done' && wait.waiting !== null && path.length < limit) {
    const asked = wait.waiting;
    const label = choose(asked, state, config);
    path.push(label);
    wait = { waiting: null, executor: wait.executor };
    for (const event of answerEvents(label, asked, state, config)) {
      const result = stepper.step(state, event, config);
      state = result.state;
      wait = waitAfter(result.effects, wait);
    }
  }
  const { scenario } = pathToScenario(path, config, overrides, params, 'bounds witness: the most model calls this config allows', stepper);
  return { scenario, modelCalls: state.context.modelCalls, bound, path };
}
