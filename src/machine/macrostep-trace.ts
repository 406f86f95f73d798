/**
 * What one `transition()` of the loop machine did, in call order: every guard xstate evaluated (with its answer)
 * and every action it ran.
 *
 * The machine's guard and action wrappers report to the tracer found in the context under `TRACER`, if any. A
 * caller that wants a trace puts its own tracer there for one transition (`withTracer`); a plain `step()` has
 * none, and the tracer never reaches the stored state (`toLoopContext` copies the run's fields only, and a symbol
 * key is not JSON). So nothing here is module state: each trace belongs to the caller that asked for it.
 * `src/reducer/macrostep-memo.ts` uses the traces to memoize the paths xstate takes.
 */
import type { ActionFn, GuardFn, MachineContext } from './machine-context.ts';

type AnyParams = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export type TraceStep =
  | { kind: 'guard'; fn: GuardFn<AnyParams>; params: unknown; result: boolean }
  | { kind: 'action'; fn: ActionFn<AnyParams>; params: unknown };

/** Where a traced machine's guard and action wrappers report. */
export interface MachineTracer {
  guard(fn: GuardFn<AnyParams>, params: unknown, result: boolean): void;
  action(fn: ActionFn<AnyParams>, params: unknown): void;
}

/** Where a traced context carries its tracer. */
export const TRACER: unique symbol = Symbol('turnloop.machineTracer');

export type TracedContext = MachineContext & { [TRACER]?: MachineTracer };

/** The tracer a context carries, if any. */
export function tracerOf(context: MachineContext): MachineTracer | undefined {
  return (context as TracedContext)[TRACER];
}

/** `context` carrying `tracer`: the machine's guards and actions report to it while it runs from this context. */
export function withTracer(context: MachineContext, tracer: MachineTracer): MachineContext {
  (context as TracedContext)[TRACER] = tracer;
  return context;
}

/** Collects the trace of the runs it is asked to record; calls outside `record` are not kept. */
export interface TraceCollector extends MachineTracer {
  /** Runs `run` (one machine transition) and returns its result with the guards and actions it went through. */
  record<T>(run: () => T): { result: T; trace: TraceStep[] };
}

interface RecordingTracer extends TraceCollector {
  active: TraceStep[] | null;
}

/**
 * A tracer that records nothing until asked. An object literal, not a class instance, for the reason given at
 * `createMacrostepMemo` (a tracer lives as long as its run).
 */
export function createTraceCollector(): TraceCollector {
  const tracer: RecordingTracer = { active: null, guard: traceGuard, action: traceAction, record };
  return tracer;
}

function traceGuard(this: RecordingTracer, fn: GuardFn<AnyParams>, params: unknown, result: boolean): void {
  if (this.active) this.active.push({ kind: 'guard', fn, params, result });
}

function traceAction(this: RecordingTracer, fn: ActionFn<AnyParams>, params: unknown): void {
  if (this.active) this.active.push({ kind: 'action', fn, params });
}

function record<T>(this: RecordingTracer, run: () => T): { result: T; trace: TraceStep[] } {
  const outer = this.active;
  const trace: TraceStep[] = [];
  this.active = trace;
  try {
    return { result: run(), trace };
  } finally {
    this.active = outer;
  }
}
