/**
 * The witness of the model-call bound: a run that makes as many main-loop model calls as `computeBounds` says
 * is possible, built by an environment that always picks the answer which opens one more call (docs/bounds.md
 * "Witness"), and written as a scenario (`turnloop bounds --witness FILE`, then `turnloop simulate FILE`).
 *
 * The policy, first match wins: fall back once; escalate the output cap; drain a collapse; recover from
 * `max_tokens`; compact reactively; call a tool while turns remain; else answer, and let a stop hook block
 * while its cap allows. Compactions succeed, drains commit. Token-budget continuations follow from the replies'
 * output tokens, so with a token budget the witness may fall short of the bound (it says by how much).
 *
 * A witness is a scenario, so it keeps to the format's limits: a list of answers holds at most
 * `MAX_SCRIPTED_ANSWERS` (100,000). A finite bound past that is refused before any step is taken
 * (`WitnessTooLargeError`, exit 2: a huge `maxTurns` used to run without bound in time and memory); under an
 * infinite bound the witness stops where the lists are full, and says how far it reached.
 */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { MAX_SCRIPTED_ANSWERS } from '../fake-api/index.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
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

/** A witness that no scenario can hold. Bad input for the CLI (exit 2). */
export class WitnessTooLargeError extends TurnloopError {
  readonly exitCode = 2;
  constructor(what: string) {
    super('WITNESS_TOO_LARGE', `--witness: ${what}; a scenario holds at most ${MAX_SCRIPTED_ANSWERS.toLocaleString('en-US')} answers in a list. Lower maxTurns (or the limits) so that the bound is at most ${MAX_SCRIPTED_ANSWERS.toLocaleString('en-US')} model calls`);
    this.name = 'WitnessTooLargeError';
  }
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
  if (Number.isFinite(bound) && bound > MAX_SCRIPTED_ANSWERS) {
    throw new WitnessTooLargeError(`the bound is ${bound.toLocaleString('en-US')} main-loop model calls, so its witness would need as many model answers`);
  }
  const path: AnswerLabel[] = [];
  const first = stepper.initial(params, config);
  let state = first.state;
  let wait = waitAfter(first.effects, NOTHING_PENDING);
  // Far above any run the caps allow: a guard against a mutant machine that never stops.
  const limit = 20 * (Number.isFinite(bound) ? bound : MAX_SCRIPTED_ANSWERS) + 100;
  let modelAnswers = 0;
  let toolResults = 0;
  while (state.status !== 'done' && wait.waiting !== null && path.length < limit) {
    // An infinite bound: stop where a scenario list is full (the next answer would not fit).
    if ((wait.waiting.kind === 'model' && modelAnswers >= MAX_SCRIPTED_ANSWERS) || (wait.waiting.kind === 'tools' && toolResults >= MAX_SCRIPTED_ANSWERS)) break;
    if (wait.waiting.kind === 'model') modelAnswers++;
    if (wait.waiting.kind === 'tools') toolResults++;
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
  // A run grows the default model-call cap to what maxTurns needs (`resolveRunConfig`); a scenario is resolved
  // from its overrides alone, so the witness pins the cap it was built under, or simulate would stop it short.
  const pinned =
    overrides.limits?.maxModelCalls === undefined && resolveConfig(overrides).limits.maxModelCalls !== config.limits.maxModelCalls
      ? { ...overrides, limits: { ...overrides.limits, maxModelCalls: config.limits.maxModelCalls } }
      : overrides;
  const { scenario } = pathToScenario(path, config, pinned, params, 'bounds witness: the most model calls this config allows', stepper);
  const results = (scenario.tools[0] as { results?: unknown[] } | undefined)?.results?.length ?? 0;
  if (scenario.model.length > MAX_SCRIPTED_ANSWERS || results > MAX_SCRIPTED_ANSWERS) {
    throw new WitnessTooLargeError(`the witness holds ${scenario.model.length.toLocaleString('en-US')} model answers and ${results.toLocaleString('en-US')} tool results`);
  }
  return { scenario, modelCalls: state.context.modelCalls, bound, path };
}
