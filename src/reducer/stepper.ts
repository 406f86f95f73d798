/**
 * A stepper: `step()` and `initialState()` bundled with what a caller may choose to keep between steps.
 *
 * `createStepper()` is plain `step()`. `createStepper({ memo: true })` owns a macrostep memo (`macrostep-memo.ts`):
 * the paths xstate's `transition()` takes through the chart, recorded with the stepper's own tracer and followed
 * again without xstate while the guards answer the same way. Same results as `step()` (a property test holds them
 * equal); several times faster on a long fold. The memo belongs to the stepper. The paths it follows are fresh
 * ones unless the caller hands it some (`paths`): a driver that runs many times in one process shares one set per
 * machine (`src/runtime/chart-paths.ts`), so only its first run asks xstate. Nothing here is module state.
 */
import type { LoopConfig } from '../config/config.ts';
import { loopMachine } from '../machine/loop-machine.ts';
import { createTraceCollector, type TraceCollector } from '../machine/macrostep-trace.ts';
import { checkMemoPreconditions, memoPreconditionProblems } from '../machine/memo-preconditions.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import { fillContext, toScratchContext, type ScratchContext } from '../machine/machine-context.ts';
import { createInitialContext } from '../machine/context-conversions.ts';
import { createChartPaths, createMacrostepMemo, type ChartPaths, type MacrostepMemo, type MemoStats } from './macrostep-memo.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { checkEventType, initialState, initialTransitionOf, resultFromContext, step, transitionOf, unchangedBy, type StepResult } from './step.ts';

export type { ChartPaths } from './macrostep-memo.ts';

export interface StepperOptions {
  /** Memoize the machine's paths (for drivers that fold many events: replay, the interpreter, the viewer). */
  memo?: boolean;
  /** The chart's paths the memo follows and extends (default: fresh ones, owned by this stepper alone). */
  paths?: ChartPaths;
}

export interface Stepper {
  initialState(params: LoopParams, config: LoopConfig): StepResult;
  step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult;
  /** How often the memo was followed, missed, and its size (zeros without a memo). */
  stats(): MemoStats;
}

/** Without a memo there is nothing to own: every such stepper is this one (frozen). */
const PLAIN: Stepper = Object.freeze({ initialState, step, stats: () => ({ hits: 0, misses: 0, nodes: 0 }) });

/**
 * What a memoized stepper keeps between steps: the memo and the tracer that records its misses. A driver that
 * steps on its hot path owns one and calls `stepWithMemo` (a module function) rather than a stepper's `step`.
 */
export interface StepMemo {
  readonly memo: MacrostepMemo;
  readonly tracer: TraceCollector;
  /** The context the memo runs each step's guards and actions on (`scratchFor`); made by the first step. */
  scratch: ScratchContext | null;
  /**
   * The state whose context `scratch` holds field for field: the one the last hit returned (its context was copied
   * out of the scratch, and nothing wrote to the scratch since). A step from that very object needs no refill.
   * Null from the start of each step until it ends in a hit (a miss, or a guard or action that throws, leaves the
   * scratch half-updated), whenever the scratch is let go, and always when `carries` is false.
   */
  carried: LoopState | null;
  /**
   * Whether steps may skip the refill (`carried`): true for the drivers and replay, which step from the state the
   * last step returned and never change a state in place. False for `createStepper`'s public stepper, whose caller
   * may step again from a state it changed in place.
   */
  readonly carries: boolean;
}

/** Why the memo could not replay the loop chart exactly (none: a test holds it), found once from the chart. */
const LOOP_MEMO_PROBLEMS: readonly string[] = Object.freeze(memoPreconditionProblems(loopMachine));

/**
 * A fresh memo over `paths` (default: fresh ones), and its tracer (an object literal: see `createStepper`); refused
 * for a chart the memo cannot replay. `carries`: see `StepMemo.carries` (a driver that may change a state in place
 * before stepping from it passes false).
 */
export function createStepMemo(paths: ChartPaths = createChartPaths(), carries = true): StepMemo {
  checkMemoPreconditions(LOOP_MEMO_PROBLEMS);
  return { memo: createMacrostepMemo(paths), tracer: createTraceCollector(), scratch: null, carried: null, carries };
}

/**
 * A stepper; see the module comment. Its `step` is a one-line handoff to `stepWithMemo`, a module function: V8
 * keeps a function's optimized code only while a function object using it is alive, so the work done in a closure
 * made per run would start unoptimized in every run after a full GC (docs/architecture.md, "Shapes that outlive a
 * run"). The handoff stays a closure so that `const { step } = createStepper(...)` keeps working; the drivers, which
 * step on every event, own a `StepMemo` and call `stepWithMemo` themselves.
 */
export function createStepper(options: StepperOptions = {}): Stepper {
  if (!options.memo) return PLAIN;
  const owned = createStepMemo(options.paths, false);
  return {
    initialState: (params, config) => initialStateWithMemo(owned, params, config),
    stats: () => owned.memo.stats(),
    step: (state, event, config) => stepWithMemo(owned, state, event, config),
  };
}

/**
 * Where the memo keeps the initial transition's path: a root no state of the chart has (state names are
 * identifiers), under xstate's own init event type.
 */
const INITIAL_ROOT = '#initial';
const INIT_EVENT_TYPE = 'xstate.init';

/**
 * `initialState()`, following `owned`'s memo where it can: the initial transition (the first iteration's entry
 * actions and the guards on the way) is a path like any other, recorded the first time and followed after, so a
 * short run does not pay xstate's initial snapshot each time. The actions see xstate's init event (its type and
 * the input); none of them reads it.
 */
export function initialStateWithMemo(owned: StepMemo, params: LoopParams, config: LoopConfig): StepResult {
  const { memo, tracer } = owned;
  const initial = createInitialContext(params, config);
  const scratch = toScratchContext(initial, config);
  const init = { type: INIT_EVENT_TYPE, input: scratch } as unknown as LoopEvent;
  const followed = memo.follow(INITIAL_ROOT, scratch, init);
  if (followed) {
    const result = resultFromContext(followed.end.value, followed.end.done, followed.context, ownEffects(followed.effects));
    // The run's first step goes on from this scratch: it holds the initial state's context (see `carried`).
    if (owned.carries && !followed.end.done) {
      owned.scratch = scratch;
      owned.carried = result.state;
    }
    return result;
  }
  const { result, trace } = tracer.record(() => initialTransitionOf(initial, config, tracer));
  memo.add(INITIAL_ROOT, init, trace, { value: result.state.value, done: result.state.status === 'done', unchanged: false });
  return result;
}

/**
 * `owned`'s scratch context, filled from `state` and `config` for one step. Refilled, not built per step: it was a
 * fifth of a step's cost in the fold (a 31-field object and its float box per step). Safe to reuse because nothing
 * keeps it: the step's state gets a copy (`toLoopContext`), actions keep only values read from it, and every field
 * is written again before each step, so what a step (or a miss halfway) left in it is never read.
 */
function scratchFor(owned: StepMemo, state: LoopState, config: LoopConfig): ScratchContext {
  const scratch = owned.scratch;
  if (scratch === null) return (owned.scratch = toScratchContext(state.context, config));
  // The driver steps from the state the last hit returned (each of a turn's seven steps after the first): the
  // scratch already holds that context, field for field, so refilling it (27 loads, 28 stores) is skipped.
  if (owned.carried !== state) fillContext(scratch, state.context);
  // Until this step ends in a hit, the scratch holds no state's context: a miss or a guard or action that throws
  // may leave it half-written, and a caller that catches the throw may step from `state` again.
  owned.carried = null;
  scratch.config = config;
  return scratch;
}

/** `step()`, following `owned`'s memo where it can and recording xstate's path into it where it cannot. */
export function stepWithMemo(owned: StepMemo, state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  checkEventType(event);
  if (state.status === 'done') return { state, effects: [] };
  const followed = owned.memo.follow(state.value, scratchFor(owned, state, config), event);
  if (followed === null) return stepByMachine(owned, state, event, config);
  const end = followed.end;
  // No action ran on an unchanged path: the scratch still holds `state`'s context.
  if (end.unchanged) {
    if (owned.carries) owned.carried = state;
    return unchangedBy(state, event);
  }
  // The caller's own array: `follow` hands out one frozen array when there are none.
  const effects = followed.effects;
  const result = resultFromContext(end.value, end.done, followed.context, effects.length === 0 ? [] : effects);
  if (owned.carries) owned.carried = result.state;
  if (end.done) releaseStepMemo(owned);
  return result;
}

/**
 * A step the memo missed: xstate computes it, and its path joins the memo. Apart from `stepWithMemo`, whose every
 * call allocated a context for the variables this closure captures while the closure was in its body.
 */
function stepByMachine(owned: StepMemo, state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  const { memo, tracer } = owned;
  const { result: next, trace } = tracer.record(() => transitionOf(loopMachine, state, event, config, tracer));
  memo.add(state.value, event, trace, next
    ? { value: next.state.value, done: next.state.status === 'done', unchanged: false }
    : { value: state.value, done: false, unchanged: true });
  if (next?.state.status === 'done') releaseStepMemo(owned);
  return next ?? unchangedBy(state, event);
}

/** A step's effects as the caller's own array: `follow` hands out one frozen array when there are none. */
function ownEffects(effects: Effect[]): Effect[] {
  return effects.length === 0 ? [] : effects;
}

/**
 * Lets go of what `owned` holds of its run (the scratch context, with the last step's history and config); its
 * paths stay. Done by the step that ends the run, so a memo kept after its run (the drivers keep their last
 * interpreter, src/tools/kept-shapes.ts) holds none of the run's data (a run that fails still ends in a terminal
 * step); a driver that drops a run before any end may call it itself. A later step makes a new scratch.
 */
export function releaseStepMemo(owned: StepMemo): void {
  owned.scratch = null;
  owned.carried = null;
}
