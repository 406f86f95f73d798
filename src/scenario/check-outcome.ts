/**
 * Outcome checks of a simulation: whether it matches the scenario's `expect`, and whether its terminal counts as
 * a failure for `--strict`. Pure.
 */
import type { Terminal, TerminalReason } from '../data/outcomes.ts';
import type { AgentRunExpect, ScenarioAgent, ScenarioExpect } from './scenario-schema.ts';
import type { SimulationResult } from './simulate.ts';

/**
 * Terminals that mean the run could not finish its work: errors, the turn limit and the spend cap. Aborts and hook stops are
 * requested endings. A terminal reached through a §9.10 cap is a failure too, and so is a `completed` that ended
 * on an API error (docs/loop.md §4.9.3; the Terminal's `apiError` extension field says so).
 */
export const FAILURE_TERMINALS: ReadonlySet<TerminalReason> = new Set(['blocking_limit', 'image_error', 'model_error', 'prompt_too_long', 'max_turns', 'max_budget_usd']);

export function isFailureTerminal(terminal: Terminal): boolean {
  return (
    FAILURE_TERMINALS.has(terminal.reason) ||
    ('cap' in terminal && terminal.cap !== undefined) ||
    ('apiError' in terminal && terminal.apiError !== undefined)
  );
}

type Compare = (what: string, want: unknown, got: unknown) => void;
type RunOutcome = Pick<SimulationResult, 'transitions' | 'modelCalls' | 'toolCalls' | 'scriptExhausted'> & { terminal: Terminal | null };

/** The checks a run and a subagent's run share. */
function compareRun(compare: Compare, expected: AgentRunExpect, result: RunOutcome): void {
  compare('terminal', expected.terminal, result.terminal?.reason ?? null);
  compare('apiError', expected.apiError, result.terminal && 'apiError' in result.terminal ? result.terminal.apiError?.kind : undefined);
  compare('transitions', expected.transitions, result.transitions);
  compare('modelCalls', expected.modelCalls, result.modelCalls);
  compare('toolCalls', expected.toolCalls, result.toolCalls.length);
  compare('scriptExhausted', expected.scriptExhausted, result.scriptExhausted);
}

/**
 * The differences between what the scenario expects and what happened; empty when it matches. Given the
 * scenario's `agents`, the number of child runs must be `expect.agentRuns` (absent: the number of scripted runs)
 * and every scripted run with an `expect` must have run and reached it.
 */
export function outcomeMismatches(expected: ScenarioExpect, result: SimulationResult, agents: readonly ScenarioAgent[] = []): string[] {
  const problems: string[] = [];
  const comparer =
    (prefix: string): Compare =>
    (what, want, got) => {
      if (want !== undefined && JSON.stringify(want) !== JSON.stringify(got)) problems.push(`${prefix}${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    };
  const compare = comparer('');
  compareRun(compare, expected, result);
  compare('stopHookCalls', expected.stopHookCalls, result.stopHookCalls);
  compare('autocompactBeforeCalls', expected.autocompactBeforeCalls, result.compactions.auto.beforeModelCalls);
  const auto = result.compactions.auto;
  if (expected.autocompactsAtLeast !== undefined && auto.succeeded < expected.autocompactsAtLeast) {
    problems.push(`autocompacts: expected at least ${expected.autocompactsAtLeast}, got ${auto.succeeded}`);
  }
  compare('autocompactFailures', expected.autocompactFailures, auto.attempted - auto.succeeded);
  // A request the strict fake refused is a bug unless the scenario says it expects it.
  compare('rejectedRequests', expected.rejectedRequests ?? [], result.rejections.map((r) => r.rule));
  compare('agentRuns', expected.agentRuns ?? agents.reduce((sum, agent) => sum + agent.runs.length, 0), result.agentRuns.length);
  for (const agent of agents) {
    agent.runs.forEach((run, i) => {
      if (!run.expect) return;
      const where = `agent ${agent.name} run ${i + 1}: `;
      const started = result.agentRuns.find((r) => r.agent === agent.name && r.run === i);
      if (started) compareRun(comparer(where), run.expect, started);
      else problems.push(`${where}expected to run, never invoked`);
    });
  }
  return problems;
}
