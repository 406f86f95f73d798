/**
 * Proven bounds and the exhaustive explorer (docs/bounds.md): what one run can cost at most under a config, and
 * every reachable state of the loop checked against it.
 */
export { computeBounds, continueBounds, tokenBudgetContinuations } from './compute-bounds.ts';
export { maxInputPerCall, maxOutputPerCall, worstCallCostUsd } from '../rules/call-cost.ts';
export type { BoundsOptions, BoundsParams, ContinueBounds, LoopBounds } from './compute-bounds.ts';
export { exploreLoop } from './explore-loop.ts';
export type { ExploreOptions, ExploreResult, InvariantName, Violation } from './explore-loop.ts';
export { engineStepper, stepperFor, type Stepper } from './stepper.ts';
export type { AnswerLabel } from './abstract-answers.ts';
export { pathToScenario, type PathScenario, type ScenarioJson } from './path-scenario.ts';
export { boundsWitness, type Witness } from './witness.ts';
export { boundsInputOf, boundsInputOfScenario, type BoundsInput } from './scenario-bounds.ts';
