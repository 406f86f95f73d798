/**
 * Breakpoints: which steps the live inspector holds before their effects run. Pure: a breakpoint is JSON data and
 * whether it matches is a function of the step alone (its effects and the chart transitions it took).
 */
import type { EffectOf } from '../data/effects.ts';
import type { ContinueReason, TerminalReason } from '../data/outcomes.ts';
import type { StepRecord } from '../runtime/query-options.ts';
import type { Chart } from '../viz/graph.ts';

export type Breakpoint =
  /** Before each model call (the step that asks for `call_model`). */
  | { kind: 'model_call' }
  /** Before tools run (a batch, or the first tool of a streaming reply). */
  | { kind: 'tools' }
  /** On a Continue: any, or one reason. */
  | { kind: 'continue'; reason?: ContinueReason }
  /** On one chart transition, by its id (`sampling|model_done|0`, see `docs/statechart.md`). */
  | { kind: 'transition'; id: string }
  /** On a terminal: any, or one reason. */
  | { kind: 'terminal'; reason?: TerminalReason };

/** What a step did, as far as breakpoints care. */
export interface StepFacts {
  effectTypes: string[];
  /** Chart transition ids the step took, in order. */
  transitions: string[];
  continues: ContinueReason[];
  terminal: TerminalReason | null;
}

export function stepFacts(chart: Chart, step: StepRecord, transitions: string[]): StepFacts {
  const byId = new Map(chart.transitions.map((t) => [t.id, t]));
  const continues = transitions.flatMap((id) => {
    const reason = byId.get(id)?.continue;
    return reason ? [reason] : [];
  });
  const terminated = step.effects.find((e): e is EffectOf<'terminated'> => e.type === 'terminated');
  return {
    effectTypes: step.effects.map((e) => e.type),
    transitions,
    continues,
    terminal: terminated ? terminated.terminal.reason : null,
  };
}

export function breakpointMatches(breakpoint: Breakpoint, facts: StepFacts): boolean {
  switch (breakpoint.kind) {
    case 'model_call':
      return facts.effectTypes.includes('call_model');
    case 'tools':
      return facts.effectTypes.includes('run_tools') || facts.effectTypes.includes('enqueue_tool');
    case 'continue':
      return breakpoint.reason === undefined ? facts.continues.length > 0 : facts.continues.includes(breakpoint.reason);
    case 'transition':
      return facts.transitions.includes(breakpoint.id);
    case 'terminal':
      return facts.terminal !== null && (breakpoint.reason === undefined || breakpoint.reason === facts.terminal);
  }
}

/** A one-line label for a breakpoint, for the page and messages. */
export function describeBreakpoint(breakpoint: Breakpoint): string {
  switch (breakpoint.kind) {
    case 'model_call':
      return 'before each model call';
    case 'tools':
      return 'before tools run';
    case 'continue':
      return breakpoint.reason ? `on Continue ${breakpoint.reason}` : 'on any Continue';
    case 'transition':
      return `on transition ${breakpoint.id}`;
    case 'terminal':
      return breakpoint.reason ? `on terminal ${breakpoint.reason}` : 'on any terminal';
  }
}
