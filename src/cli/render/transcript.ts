/**
 * The readable transcript of `turnloop simulate` (without --json): every emitted message as it happens, each
 * Continue transition as a rule, every compaction that happened or failed (a failed autocompact is otherwise
 * silent), the terminal highlighted, then a one-line tally.
 */
import type { StepObserver } from '../../runtime/query-options.ts';
import type { QueryItem } from '../../messages/types.ts';
import type { Terminal } from '../../data/outcomes.ts';
import { messageLines } from './message-line.ts';
import type { Style } from './style.ts';
import { isFailureTerminal } from '../../scenario/check-outcome.ts';
import type { SimulationResult } from '../../scenario/simulate.ts';

export interface TranscriptPrinter {
  onItem(item: QueryItem): void;
  onStep: StepObserver;
  finish(result: SimulationResult): void;
}

export function terminalDetail(terminal: Terminal): string {
  const details: string[] = [];
  if (terminal.reason === 'model_error') details.push(terminal.error.message);
  if (terminal.reason === 'max_turns') details.push(`turnCount ${terminal.turnCount}`);
  if (terminal.reason === 'stop_hook_prevented' && terminal.stopReason) details.push(terminal.stopReason);
  if ('cap' in terminal && terminal.cap) details.push(`cap ${terminal.cap}`);
  if ('message' in terminal && terminal.message) details.push(terminal.message);
  return details.length > 0 ? ` (${details.join('; ')})` : '';
}

type Step = Parameters<StepObserver>[0];

/** One line for a compaction outcome, or null for any other step. */
export function compactionLine(event: Step['event'], state: Step['state'], breakerAt?: number): string | null {
  if (event?.type === 'autocompact_result') {
    if (event.ok) return `── autocompact: ${tokens(event.preCompactTokens)} → ${tokens(event.postCompactTokens)} tokens (turn ${state.context.turnCount}) ──`;
    const failures = state.context.autoCompactTracking?.consecutiveFailures ?? 0;
    const breaker = breakerAt !== undefined && failures >= breakerAt ? '; circuit breaker open, no more autocompact' : '';
    return `── autocompact failed (${failures} in a row${breaker}): ${event.error ?? 'no reason given'} ──`;
  }
  if (event?.type === 'reactive_compact_result') {
    return event.ok
      ? `── reactive compact: ${tokens(event.preCompactTokens)} tokens summarised (turn ${state.context.turnCount}) ──`
      : `── reactive compact failed: ${event.error ?? 'no reason given'} ──`;
  }
  return null;
}

function tokens(value: number | undefined): string {
  return value === undefined ? '?' : value.toLocaleString('en-US');
}

/** `autocompactMaxFailures`: the run's circuit-breaker limit, to say when it opens. */
export function createTranscriptPrinter(write: (line: string) => void, style: Style, title: string, autocompactMaxFailures?: number): TranscriptPrinter {
  write(style.bold(`scenario: ${title}`));
  return {
    onItem(item) {
      if (item.type === 'stream_event' || item.type === 'request_start') return;
      for (const line of messageLines(item)) write(item.type === 'assistant' && item.apiError ? style.yellow(line) : line);
    },
    onStep({ event, state, effects }) {
      const compaction = compactionLine(event, state, autocompactMaxFailures);
      if (compaction) write(style.cyan(compaction));
      if (event === null || !effects.some((e) => e.type === 'request_start') || !state.context.transition) return;
      const transition = state.context.transition;
      const detail = transition.reason === 'collapse_drain_retry' ? ` committed ${transition.committed}` : transition.reason === 'max_output_tokens_recovery' ? ` attempt ${transition.attempt}` : '';
      write(style.cyan(`── continue: ${transition.reason}${detail} (turn ${state.context.turnCount}) ──`));
    },
    finish(result) {
      const paint = isFailureTerminal(result.terminal) ? style.red : style.green;
      write(style.bold(paint(`══ terminal: ${result.terminal.reason}${terminalDetail(result.terminal)} ══`)));
      const c = result.compactions;
      write(
        style.dim(
          `model calls ${result.modelCalls}, tool calls ${result.toolCalls.length}, stop hook calls ${result.stopHookCalls}, ` +
            `compactions auto ${c.auto.succeeded}/${c.auto.attempted} reactive ${c.reactive.succeeded}/${c.reactive.attempted} ` +
            `drain ${c.collapseDrain.succeeded}/${c.collapseDrain.attempted}${result.scriptExhausted ? ', script exhausted' : ''}`,
        ),
      );
      for (const run of result.agentRuns) {
        const ending = run.terminal ? `${run.terminal.reason}${terminalDetail(run.terminal)}` : '(not ended)';
        write(
          style.dim(
            `subagent ${run.agent} (${run.toolUseId}): ${ending}, model calls ${run.modelCalls}, tool calls ${run.toolCalls.length}` +
              `${run.run === null ? ', no scripted run left' : ''}${run.scriptExhausted ? ', script exhausted' : ''}`,
          ),
        );
      }
    },
  };
}
