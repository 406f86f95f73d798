/**
 * What one `transition()` of the loop machine did, in call order: every guard xstate evaluated (with its answer)
 * and every action it ran. The machine's guard and action wrappers report here; nothing is kept unless a trace
 * is being recorded, so running the machine outside `recordMacrostep` costs one null check per call.
 *
 * `src/reducer/macrostep-memo.ts` uses these traces to memoize the paths xstate takes through the chart.
 */
import type { ActionFn, GuardFn } from './machine-context.ts';

type AnyParams = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export type TraceStep =
  | { kind: 'guard'; fn: GuardFn<AnyParams>; params: unknown; result: boolean }
  | { kind: 'action'; fn: ActionFn<AnyParams>; params: unknown };

let active: TraceStep[] | null = null;

export function traceGuard(fn: GuardFn<AnyParams>, params: unknown, result: boolean): void {
  if (active) active.push({ kind: 'guard', fn, params, result });
}

export function traceAction(fn: ActionFn<AnyParams>, params: unknown): void {
  if (active) active.push({ kind: 'action', fn, params });
}

/** Runs `run` (one machine transition) and returns its result with the guards and actions it went through. */
export function recordMacrostep<T>(run: () => T): { result: T; trace: TraceStep[] } {
  const outer = active;
  const trace: TraceStep[] = [];
  active = trace;
  try {
    return { result: run(), trace };
  } finally {
    active = outer;
  }
}
