/**
 * The viewer's session, folded in the page with the same pure `step()` replay uses. Events can be added at any
 * time (`addSteps`), so a page can be fed a live run step by step.
 *
 * Costs, so a long session stays fast:
 * - folding keeps, per step, only a small index entry (event type, active state, flags, a one-line summary);
 *   full states and the pending effects are kept every `CHECKPOINT_EVERY` steps, and a step's state, effects and
 *   pending effects are re-derived from the nearest checkpoint when asked for (at most `CHECKPOINT_EVERY` steps of
 *   `step()`, more when a long session thinned them: `MAX_CHECKPOINTS`). A step's effects are not kept: a model
 *   call's carries its whole request, so keeping them all made the page's memory grow with the square of the
 *   session;
 * - the last states asked for are cached with their pending effects, so stepping forward or back by one is one
 *   `step()` at most;
 * - the transitions a step took and its state diff are computed only for the step being shown.
 * Pure apart from its own caches; no DOM.
 */
import type { LoopConfig } from '../../config/config.ts';
import type { Effect } from '../../data/effects.ts';
import type { LoopEvent } from '../../data/events.ts';
import { createInitialContext, toMachineContext } from '../../machine/context-conversions.ts';
import type { LoopParams, LoopState } from '../../data/state.ts';
import { createStepper } from '../../reducer/stepper.ts';
import { eventSummary, frameOf, viewMessage, type Frame, type ViewMessage } from '../frames.ts';
import { buildChart, leafOf, type Chart } from '../graph.ts';
import { nextPending } from '../pending.ts';
import { tracedInitialTransitions, tracedTransitions } from '../trace.ts';
import { diffValues, type Change } from './state-diff.ts';

/** Checkpoint spacing of a short session; the spacing doubles each time the checkpoints outnumber `MAX_CHECKPOINTS`. */
export const CHECKPOINT_EVERY = 8;
/**
 * A state's messages array is its own (a step that adds a message copies it), so each checkpoint holds the
 * conversation as it was: kept every 8 steps, 8,000 events held 1.6 KB per event of them. Past this many the
 * checkpoints are thinned (every other one dropped), so a long session keeps a few hundred and re-derives a step
 * from at most `every` steps back.
 */
export const MAX_CHECKPOINTS = 256;

/** Step flags, for the timeline and the "jump to next..." buttons. */
export const STAYED = 1; // took a transition and stayed in the same state (a self-transition)
export const CONTINUE = 2; // started a new iteration (one of the 7 Continues)
export const TOOL_CALL = 4; // asked for tools to run
export const DONE = 8; // reached a terminal
export const IGNORED = 16; // the state did not handle the event
export const STATE_CHANGE = 32; // the active state is another one
export const MESSAGE = 64; // emitted a message (a prompt's answer, a tool call, a tool result...)

export interface StepEntry {
  /** The event's `type`; `(start)` for step 0. */
  type: string;
  /** The active leaf state after the step. */
  state: string;
  flags: number;
  /** One line, for the timeline and the search. */
  summary: string;
}

export interface EmittedMessage {
  step: number;
  message: ViewMessage;
}

export interface StepDetail {
  frame: Frame;
  event: LoopEvent | null;
  changes: Change[];
}

export interface SessionInput {
  config: LoopConfig;
  params: LoopParams;
  events?: LoopEvent[];
  /** The `index` of each event line, as logged. */
  indexes?: number[];
}

const SUMMARY_CHARS = 160;

export class SessionModel {
  readonly config: LoopConfig;
  readonly params: LoopParams;
  readonly events: LoopEvent[] = [];
  readonly entries: StepEntry[] = [];
  /** Every message the run emitted, in order, with the step that emitted it. */
  readonly emitted: EmittedMessage[] = [];
  /** `emittedUpTo[i]`: how many messages were emitted by steps 0..i. */
  readonly emittedUpTo: number[] = [];
  /** The step that asked for each tool call (`run_tools` or `enqueue_tool`), by tool_use id, in the order asked. */
  readonly toolCalls = new Map<string, number>();
  /** The initial state's effects (a later step's are re-derived by `detail`). */
  private initialEffects: Effect[] = [];
  /** Every `every`-th step: its state and the effects pending after it (`checkpoints[k]` is step `k * every`). */
  private checkpoints: Array<{ state: LoopState; pending: Effect[] }> = [];
  private every = CHECKPOINT_EVERY;
  private last: LoopState;
  /** The effects pending after the last step (where the next fold starts). */
  private lastPending: Effect[] = [];
  private cache: Array<{ index: number; state: LoopState; pending: Effect[] }> = [];
  private initialTransitions: string[] | null = null;
  private readonly indexes: number[] | undefined;
  /** A memo of the chart's paths, for re-deriving states from checkpoints again and again. */
  private readonly stepper = createStepper({ memo: true });

  constructor(
    readonly chart: Chart,
    input: SessionInput,
  ) {
    this.config = input.config;
    this.params = input.params;
    this.indexes = input.indexes;
    const first = this.stepper.initialState(this.params, this.config);
    this.last = first.state;
    this.record(null, first.state, first.state, first.effects);
    if (input.events) this.addSteps(input.events);
  }

  /** Number of steps, the initial state included (`events.length + 1`). */
  get length(): number {
    return this.entries.length;
  }

  /** The run's Terminal reason once it has ended, else null (a log that stops before the run did). */
  get terminal(): string | null {
    return this.last.status === 'done' ? (this.last.context.terminal?.reason ?? leafOf(this.last.value)) : null;
  }

  /** Folds more events onto the end of the session; returns how many were added (none once it is done). */
  addSteps(events: readonly LoopEvent[]): number {
    let added = 0;
    for (const event of events) {
      if (this.last.status === 'done') break;
      const before = this.last;
      const next = this.stepper.step(before, event, this.config);
      this.events.push(event);
      this.last = next.state;
      this.record(event, before, next.state, next.effects);
      added++;
    }
    return added;
  }

  private record(event: LoopEvent | null, before: LoopState, state: LoopState, effects: Effect[]): void {
    const index = this.entries.length;
    const leaf = leafOf(state.value);
    let flags = 0;
    if (event && state === before) flags |= IGNORED;
    else if (event && leaf === leafOf(before.value)) flags |= STAYED;
    else if (event) flags |= STATE_CHANGE;
    if (event && effects.some((e) => e.type === 'request_start')) flags |= CONTINUE;
    for (const e of effects) {
      if (e.type !== 'run_tools' && e.type !== 'enqueue_tool') continue;
      flags |= TOOL_CALL;
      const ids = e.type === 'run_tools' ? e.batches.flatMap((b) => b.toolUses.map((t) => t.id)) : [e.toolUse.id];
      for (const id of ids) if (!this.toolCalls.has(id)) this.toolCalls.set(id, index);
    }
    if (state.status === 'done') flags |= DONE;
    if (effects.some((e) => e.type === 'emit')) flags |= MESSAGE;
    const summary = event ? eventSummary(event).replace(/\s+/g, ' ').slice(0, SUMMARY_CHARS) : 'initial state';
    this.entries.push({ type: event ? event.type : '(start)', state: leaf, flags, summary });
    if (index === 0) this.initialEffects = effects;
    this.lastPending = nextPending(this.lastPending, event, effects, state.status === 'done');
    for (const e of effects) if (e.type === 'emit') this.emitted.push({ step: index, message: viewMessage(e.message) });
    this.emittedUpTo.push(this.emitted.length);
    if (index % this.every === 0) {
      this.checkpoints.push({ state, pending: this.lastPending });
      if (this.checkpoints.length > MAX_CHECKPOINTS) {
        this.checkpoints = this.checkpoints.filter((_, k) => k % 2 === 0);
        this.every *= 2;
      }
    }
  }

  /** The state after step `index` (0: the initial state). */
  stateAt(index: number): LoopState {
    return this.at(index).state;
  }

  /** Step `index` folded again from the nearest cached state or checkpoint before it: its state and the effects pending after it. */
  private at(index: number): { state: LoopState; pending: Effect[] } {
    const hit = this.cache.find((c) => c.index === index);
    if (hit) return hit;
    if (index === this.entries.length - 1) return { state: this.last, pending: this.lastPending };
    const near = this.cache.filter((c) => c.index < index && index - c.index <= this.every).sort((a, b) => b.index - a.index)[0];
    let at = near ? near.index : Math.floor(index / this.every) * this.every;
    const start = near ?? this.checkpoints[at / this.every]!;
    let { state, pending } = start;
    while (at < index) {
      const event = this.events[at++]!;
      const next = this.stepper.step(state, event, this.config);
      state = next.state;
      pending = nextPending(pending, event, next.effects, state.status === 'done');
    }
    this.remember(index, state, pending);
    return { state, pending };
  }

  private remember(index: number, state: LoopState, pending: Effect[]): void {
    this.cache = [{ index, state, pending }, ...this.cache.filter((c) => c.index !== index)].slice(0, 4);
  }

  /** Everything the page shows for one step: the frame, the full event and the state diff. */
  detail(index: number): StepDetail {
    const event = index === 0 ? null : this.events[index - 1]!;
    let state: LoopState;
    let transitions: string[];
    let changes: Change[] = [];
    let effects: Effect[];
    let pending: Effect[];
    if (event) {
      // The step is re-run from the state before it, so both share structure and the diff only visits changes.
      const prior = this.at(index - 1);
      const before = prior.state;
      const next = this.stepper.step(before, event, this.config);
      state = next.state;
      effects = next.effects;
      pending = nextPending(prior.pending, event, effects, state.status === 'done');
      this.remember(index, state, pending);
      transitions = tracedTransitions(this.chart, before, event, this.config);
      changes = diffValues({ value: before.value, status: before.status, context: before.context }, { value: state.value, status: state.status, context: state.context });
    } else {
      ({ state, pending } = this.at(0));
      effects = this.initialEffects;
      transitions = this.initialTransitions ??= tracedInitialTransitions(this.chart, toMachineContext(createInitialContext(this.params, this.config), this.config));
    }
    const frame = frameOf(this.logIndex(index), event, state, effects, transitions, pending, this.config);
    return { frame, event, changes };
  }

  /** The log's own index of step `index`'s event (as logged; `index` when the log did not say). */
  logIndex(index: number): number {
    return index === 0 ? 0 : (this.indexes?.[index - 1] ?? index);
  }

  /** The first step after (dir 1) or before (dir -1) `from` whose flags include any of `mask`, or -1. */
  find(from: number, dir: 1 | -1, mask: number): number {
    for (let i = from + dir; i >= 0 && i < this.entries.length; i += dir) if (this.entries[i]!.flags & mask) return i;
    return -1;
  }
}

/**
 * Folds a session into frames in Node (tests, tools): frame 0 is the initial state, frame n the state after the
 * n-th event. The page shows the same frames, one at a time.
 *
 * @example
 * const frames = buildFrames(parseSessionLog(text));
 * frames.at(-1)?.terminal; // 'completed'
 */
export function buildFrames(session: SessionInput, chart: Chart = buildChart()): Frame[] {
  const model = new SessionModel(chart, session);
  return Array.from({ length: model.length }, (_, i) => model.detail(i).frame);
}
