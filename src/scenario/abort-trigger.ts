/**
 * A deterministic abort for simulations: aborts the run's controller when the scripted phase starts, seen through
 * `onStep` (the interpreter observes a step before it executes the step's effects, so the effect that would start
 * the phase already sees the aborted signal: no timing is involved).
 *
 * - `sampling`: the `call_model` effect of model call n; with `afterBlock: k`, right after the step that took the
 *   k-th block (`model_message`) of that call's reply ran its effects (a microtask, no timer), so a reply can be
 *   cut after any block while the tools it asked for already run (streaming tool execution);
 * - `tools`: the `run_tools` (or streaming `finish_tools`) effect after model call n;
 * - `stop_hooks`: the `run_stop_hooks` effect after model call n.
 */
import type { StepObserver } from '../runtime/query-options.ts';
import type { Effect } from '../data/effects.ts';
import type { AbortScript } from './scenario-schema.ts';

export interface AbortTrigger {
  signal: AbortSignal;
  onStep: StepObserver;
  /** True once the abort was fired. */
  fired(): boolean;
}

function startsPhase(effect: Effect, during: AbortScript['during'], modelCalls: number, atModelCall: number): boolean {
  switch (during) {
    case 'sampling':
      return effect.type === 'call_model' && effect.modelCall === atModelCall;
    case 'tools':
      return (effect.type === 'run_tools' || effect.type === 'finish_tools') && modelCalls === atModelCall;
    case 'stop_hooks':
      return effect.type === 'run_stop_hooks' && modelCalls === atModelCall;
  }
}

export function abortTrigger(script: AbortScript): AbortTrigger {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    fired: () => controller.signal.aborted,
    onStep: ({ state, effects, event }) => {
      if (controller.signal.aborted) return;
      if (script.during === 'sampling' && script.afterBlock !== undefined) {
        const { modelCalls, iter } = state.context;
        // After this step's effects (the block's tool may start, as in a live stream), before the next event.
        if (event?.type === 'model_message' && modelCalls === script.atModelCall && iter.assistantMessages.length === script.afterBlock) {
          queueMicrotask(() => controller.abort(script.reason));
        }
        return;
      }
      if (effects.some((effect) => startsPhase(effect, script.during, state.context.modelCalls, script.atModelCall))) {
        controller.abort(script.reason);
      }
    },
  };
}
