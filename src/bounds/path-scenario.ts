/**
 * A path of abstract answers (an explorer violation, a bounds witness) written as a `turnloop simulate`
 * scenario that reproduces it: each model answer becomes a fake-API answer, each tool outcome a scripted result
 * of the one tool `Probe`, each hook answer a stop-hook answer, each compaction outcome a scripted compactor, and
 * an abort the scenario's `abort`.
 *
 * Two kinds have no scenario form (a model caller that throws, a client-side image check, an abort while
 * attachments are collected); a path holding one is returned with `reproducible: false` and the reason.
 */
import type { ConfigOverrides, LoopConfig } from '../config/config.ts';
import type { ContinueReason, TerminalReason } from '../data/outcomes.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import { answerEvents, REPLY_OUTPUT_TOKENS, type AnswerLabel } from './abstract-answers.ts';
import { engineStepper, type Stepper } from './stepper.ts';
import { NOTHING_PENDING, waitAfter } from './waiting.ts';

/** A scenario file's JSON (the shape `src/scenario/scenario-schema.ts` accepts). */
export interface ScenarioJson {
  name: string;
  description: string;
  config: ConfigOverrides;
  params: Record<string, unknown>;
  model: unknown[];
  tools: unknown[];
  stopHooks: unknown[];
  compaction?: { autocompact?: string[]; reactive?: string[]; collapseDrain?: number[] };
  abort?: { during: 'sampling' | 'tools' | 'stop_hooks'; atModelCall: number; reason: 'user' };
  expect?: { terminal: TerminalReason; modelCalls: number; transitions: ContinueReason[] };
}

export interface PathScenario {
  scenario: ScenarioJson;
  /** Where the path leaves the run: its terminal (null mid-run), model calls made and Continues taken. */
  reached: { terminal: TerminalReason | null; modelCalls: number; transitions: ContinueReason[] };
  reproducible: boolean;
  /** Why not, when not. */
  reason?: string;
}

const SMALL_USAGE = { input_tokens: 1_000, output_tokens: REPLY_OUTPUT_TOKENS };

function fakeAnswer(label: AnswerLabel, config: LoopConfig, model: string): unknown[] {
  switch (label) {
    case 'model:text':
      return [{ content: [{ type: 'text', text: 'Done.' }], usage: SMALL_USAGE }];
    case 'model:tool':
      return [{ content: [{ type: 'tool_use', name: 'Probe', input: {} }], usage: SMALL_USAGE }];
    case 'model:tool_large':
      return [{ content: [{ type: 'tool_use', name: 'Probe', input: {} }], usage: { input_tokens: contextThresholds(model, config).blocking, output_tokens: REPLY_OUTPUT_TOKENS } }];
    case 'model:max_tokens':
      return [{ content: [{ type: 'text', text: 'Partial answer' }], stop_reason: 'max_tokens', usage: SMALL_USAGE }];
    case 'model:prompt_too_long':
      return [{ status: 400, error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }];
    case 'model:media_error':
      return [{ status: 400, error: { type: 'invalid_request_error', message: 'messages.0.content.0.image.source.base64: image exceeds 5 MB maximum' } }];
    case 'model:refusal':
      return [{ content: [{ type: 'text', text: 'I cannot help with that.' }], stop_reason: 'refusal', usage: SMALL_USAGE }];
    case 'model:api_error':
      return [{ status: 401 }];
    case 'model:overloaded':
      return Array.from({ length: config.retry.maxOverloadedRetries }, () => ({ status: 529 }));
    default:
      return [];
  }
}

function paramsJson(params: LoopParams): Record<string, unknown> {
  const out: Record<string, unknown> = { prompt: 'Work on the task.' };
  for (const key of ['maxTurns', 'fallbackModel', 'tokenBudget', 'querySource', 'maxOutputTokensOverride'] as const) {
    if (params[key] !== undefined) out[key] = params[key];
  }
  return out;
}

/**
 * Replays `path` through the reducer (to know the model call each answer belongs to) and writes the scenario.
 * `overrides` are the config overrides the scenario carries (the run resolves them as `simulate` does).
 */
export function pathToScenario(
  path: readonly AnswerLabel[],
  config: LoopConfig,
  overrides: ConfigOverrides,
  params: LoopParams,
  name: string,
  stepper: Stepper = engineStepper(),
): PathScenario {
  const scenario: ScenarioJson = { name, description: `Answers: ${path.join(', ')}`, config: overrides, params: paramsJson(params), model: [], tools: [], stopHooks: [] };
  const results: unknown[] = [];
  const autocompact: string[] = [];
  const reactive: string[] = [];
  const drains: number[] = [];
  let unreproducible: string | undefined;
  const first = stepper.initial(params, config);
  let state: LoopState = first.state;
  let wait = waitAfter(first.effects, NOTHING_PENDING);
  const transitions: ContinueReason[] = [];
  for (const label of path) {
    const call = state.context.modelCalls;
    const [what, how] = label.split(':');
    if (label === 'model:thrown_error' || label === 'model:image_error' || label === 'attachments:abort') unreproducible = `'${label}' has no scenario form`;
    else if (label.endsWith(':abort')) {
      const during = what === 'model' ? 'sampling' : what === 'tools' ? 'tools' : 'stop_hooks';
      scenario.abort = { during, atModelCall: call, reason: 'user' };
      if (what === 'model') scenario.model.push(...fakeAnswer('model:text', config, state.context.currentModel));
    } else if (what === 'model') scenario.model.push(...fakeAnswer(label, config, state.context.currentModel));
    else if (what === 'tools') results.push(how === 'error' ? { content: 'failed', isError: true } : how === 'prevent' ? { content: 'ok', preventContinuation: true } : { content: 'ok' });
    else if (what === 'hooks') scenario.stopHooks.push(how === 'block' ? { blockingError: 'Run the tests first.' } : how === 'prevent' ? { preventContinuation: true, stopReason: 'a hook said stop' } : {});
    else if (what === 'autocompact') autocompact.push(how as string);
    else if (what === 'reactive') reactive.push(how as string);
    else if (what === 'drain') drains.push(how === 'committed' ? 1 : 0);
    const asked = wait.waiting ?? { kind: 'model' };
    wait = { waiting: null, executor: wait.executor };
    for (const event of answerEvents(label, asked, state, config)) {
      const before = state.context.transition;
      const result = stepper.step(state, event, config);
      state = result.state;
      wait = waitAfter(result.effects, wait);
      if (state.context.transition && state.context.transition !== before) transitions.push(state.context.transition.reason);
    }
  }
  scenario.tools = [{ name: 'Probe', results }];
  const compaction = { ...(autocompact.length ? { autocompact } : {}), ...(reactive.length ? { reactive } : {}), ...(drains.length ? { collapseDrain: drains } : {}) };
  if (Object.keys(compaction).length > 0) scenario.compaction = compaction;
  if (state.status === 'done' && state.context.terminal) {
    scenario.expect = { terminal: state.context.terminal.reason, modelCalls: state.context.modelCalls, transitions };
  }
  const reached = { terminal: state.status === 'done' ? (state.context.terminal?.reason ?? null) : null, modelCalls: state.context.modelCalls, transitions };
  return unreproducible ? { scenario, reached, reproducible: false, reason: unreproducible } : { scenario, reached, reproducible: true };
}
