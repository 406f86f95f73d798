/**
 * Pause, step and resume one run: the debugger half of the live inspector. It is a `RunObserver` with a gate
 * (`src/runtime/query-options.ts`): after each step is computed and observed, the gate holds the step's effects
 * while the run is paused or a breakpoint matches, and releases them on `step()`, `resume()` or an abort.
 *
 * Invariants:
 * - A held step's effects have not run: a held `call_model` step has sent no request.
 * - An abort always releases the hold, so the run reaches its terminal through the normal abort path.
 * - `step()` releases exactly one held step and holds the next one.
 */
import type { LoopConfig } from '../config/config.ts';
import type { LoopState } from '../data/state.ts';
import type { StepRecord } from '../runtime/query-options.ts';
import type { Chart } from '../viz/graph.ts';
import { tracedTransitions } from '../viz/trace.ts';
import { breakpointMatches, describeBreakpoint, stepFacts, type Breakpoint } from './breakpoints.ts';

export interface RunControlStatus {
  /** `running`, `paused` (holding a step), `pausing` (will hold the next step), or `ended`. */
  mode: 'running' | 'pausing' | 'paused' | 'ended';
  /** The index of the held step, when paused. */
  heldStep: number | null;
  /** Why the run is held: `paused`, `step`, or the breakpoint that matched. */
  heldBecause: string | null;
  breakpoints: Breakpoint[];
}

export class RunControl {
  private breakpoints: Breakpoint[] = [];
  private pauseNext: boolean;
  private held: { index: number; because: string; release: () => void } | null = null;
  private ended = false;
  private previous: LoopState | null = null;
  private readonly transitionsByStep = new Map<number, string[]>();
  private readonly listeners = new Set<(status: RunControlStatus) => void>();

  constructor(
    private readonly chart: Chart,
    private config: LoopConfig,
    options: { startPaused?: boolean; breakpoints?: Breakpoint[] } = {},
  ) {
    this.pauseNext = options.startPaused === true;
    this.breakpoints = [...(options.breakpoints ?? [])];
  }

  /** The config the run's guards are evaluated with (for tracing which transitions a step took). */
  useConfig(config: LoopConfig): void {
    this.config = config;
  }

  /** Sees every step in order (before the gate for that step). */
  readonly onStep = (step: StepRecord): void => {
    const previous = this.previous;
    this.previous = step.state;
    if (step.event !== null && previous !== null && this.needsTransitions()) {
      this.transitionsByStep.set(step.index, tracedTransitions(this.chart, previous, step.event, this.config));
    }
  };

  /** The gate: resolves at once unless the run is paused or a breakpoint matches this step. */
  readonly gate = (step: StepRecord, signal: AbortSignal): Promise<void> | void => {
    const transitions = this.transitionsByStep.get(step.index) ?? [];
    this.transitionsByStep.delete(step.index);
    const because = this.holdReason(step, transitions);
    if (because === null || signal.aborted) return;
    return new Promise<void>((resolve) => {
      const release = () => {
        signal.removeEventListener('abort', release);
        if (this.held?.index === step.index) this.held = null;
        resolve();
        this.notify();
      };
      signal.addEventListener('abort', release, { once: true });
      this.held = { index: step.index, because, release };
      this.pauseNext = false;
      this.notify();
    });
  };

  /** Holds the next step (or keeps holding the current one). */
  pause(): void {
    if (this.ended || this.held) return;
    this.pauseNext = true;
    this.notify();
  }

  /** Releases the held step and holds the one after it. When running, pauses at the next step. */
  step(): void {
    if (this.ended) return;
    this.pauseNext = true;
    if (this.held) this.held.release();
    else this.notify();
  }

  /** Releases the held step and runs on until a breakpoint matches. */
  resume(): void {
    this.pauseNext = false;
    if (this.held) this.held.release();
    else this.notify();
  }

  setBreakpoints(breakpoints: Breakpoint[]): void {
    this.breakpoints = [...breakpoints];
    this.notify();
  }

  /** The run is over: nothing more to hold. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.pauseNext = false;
    this.held?.release();
    this.notify();
  }

  status(): RunControlStatus {
    const mode = this.ended ? 'ended' : this.held ? 'paused' : this.pauseNext ? 'pausing' : 'running';
    return { mode, heldStep: this.held?.index ?? null, heldBecause: this.held?.because ?? null, breakpoints: [...this.breakpoints] };
  }

  /** Called with the new status after every change; returns an unsubscribe function. */
  subscribe(listener: (status: RunControlStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private holdReason(step: StepRecord, transitions: string[]): string | null {
    if (this.ended) return null;
    if (this.pauseNext) return 'paused';
    if (this.breakpoints.length === 0) return null;
    const facts = stepFacts(this.chart, step, transitions);
    const hit = this.breakpoints.find((breakpoint) => breakpointMatches(breakpoint, facts));
    return hit ? describeBreakpoint(hit) : null;
  }

  private needsTransitions(): boolean {
    return this.breakpoints.some((b) => b.kind === 'continue' || b.kind === 'transition');
  }

  private notify(): void {
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }
}
