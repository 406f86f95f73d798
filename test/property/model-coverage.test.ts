/**
 * Model-based coverage of the loop statechart with `xstate/graph`: the machine is traversed from a few starting
 * configurations with event generators that depend on the state (what the outside world could answer there), over
 * an abstracted state (the state value plus the flags guards read). Every generated path, extended by each event
 * its end state accepts, is then driven through a live actor that records the transitions each microstep takes;
 * the test asserts every edge of the machine (the 17 labelled outcomes and every other `on`/`always` branch) is
 * taken by at least one path, and prints the coverage.
 */
import { describe, expect, test } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { resolveConfig, type LoopConfig } from '../../src/config/config.ts';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import type { MachineContext } from '../../src/machine/machine-context.ts';
import type { AssistantMessage } from '../../src/messages/types.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../src/data/outcomes.ts';
import type { LoopParams } from '../../src/data/state.ts';
import { edgesTakenAlong, edgesTakenFrom, machineEdges, machineInput, type TransitionDefinition } from './machine-edges.ts';

type Snapshot = ReturnType<typeof loopMachine.getInitialSnapshot>;

const HUGE = { input_tokens: 250_000, output_tokens: 100 };
const SMALL = { input_tokens: 100, output_tokens: 100 };

function assistant(id: string, content: AssistantMessage['message']['content'], apiError?: AssistantMessage['apiError']): AssistantMessage {
  const message: AssistantMessage = { type: 'assistant', uuid: `a-${id}`, message: { id: `m-${id}`, role: 'assistant', model: 'm', content, stop_reason: null } };
  return apiError ? { ...message, apiError } : message;
}

const apiError = (kind: NonNullable<AssistantMessage['apiError']>['kind']): LoopEvent => ({
  type: 'model_message',
  message: assistant(kind, [{ type: 'text', text: kind }], { kind, text: kind }),
});

/** What the outside world may answer in each state (small, but enough to reach every guard's both sides). */
function eventsFor(snapshot: Snapshot): LoopEvent[] {
  const context = snapshot.context as MachineContext;
  if (snapshot.status === 'done') return [];
  const value = JSON.stringify(snapshot.value);
  const abort: LoopEvent[] = [{ type: 'abort', reason: 'interrupt' }, { type: 'abort', reason: 'user_cancel' }];
  const open = context.iter.toolUses.find((t) => !context.iter.answeredToolUseIds.includes(t.id));
  const toolResult = (preventContinuation: boolean): LoopEvent[] =>
    open
      ? [{ type: 'tool_result', toolUseId: open.id, preventContinuation, message: { type: 'user', uuid: `r-${open.id}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: open.id, content: 'ok' }] } } }]
      : [];
  const summary: LoopEvent[] =
    context.pendingToolUseSummary && context.pendingToolUseSummary.summary === null
      ? [{ type: 'tool_use_summary_ready', summaryId: context.pendingToolUseSummary.summaryId, summary: 'ran tools' }]
      : [];
  const layer = /"(toolResultBudget|snip|microcompact|contextCollapse)Pending"/.exec(value)?.[1];
  if (layer) {
    const name = { toolResultBudget: 'tool_result_budget', snip: 'snip', microcompact: 'microcompact', contextCollapse: 'context_collapse' } as const;
    return [{ type: 'context_layer_result', layer: name[layer as keyof typeof name], edits: [], tokensFreed: 0 }, ...summary];
  }
  if (value.includes('autocompactPending')) {
    return [{ type: 'autocompact_result', ok: true, postCompactMessages: [] }, { type: 'autocompact_result', ok: false }];
  }
  if (value === '"sampling"') {
    const n = context.modelCalls;
    const sampled = context.iter.assistantMessages.length;
    const messages: LoopEvent[] =
      sampled >= 1
        ? []
        : [
            { type: 'model_message', message: assistant(`t${n}`, [{ type: 'text', text: 'hi' }]) },
            { type: 'model_message', message: assistant(`u${n}`, [{ type: 'tool_use', id: `tu${n}`, name: 'Read', input: {} }]), concurrencySafe: { [`tu${n}`]: true } },
            apiError('prompt_too_long'),
            apiError('max_output_tokens'),
            apiError('media_size'),
            apiError('other'),
          ];
    return [
      ...messages,
      ...toolResult(false),
      { type: 'model_done', usage: SMALL },
      ...(sampled === 0 ? [{ type: 'model_done', usage: HUGE } as LoopEvent] : []),
      { type: 'model_overloaded', message: 'overloaded' },
      { type: 'model_stream_fallback' },
      { type: 'model_error', error: { kind: 'image', message: 'image' } },
      { type: 'model_error', error: { kind: 'other', message: 'boom' } },
      ...abort,
    ];
  }
  if (value === '"runningTools"' || value === '"drainingAbortedTools"') {
    return [...toolResult(false), ...toolResult(true), { type: 'tools_finished' }, ...abort.slice(1)];
  }
  if (value === '"collectingAttachments"') return [{ type: 'attachments_collected', attachments: [] }, ...abort.slice(1)];
  if (value.includes('collapseDrain')) {
    return [{ type: 'collapse_drain_result', committed: 0, edits: [] }, { type: 'collapse_drain_result', committed: 2, edits: [] }];
  }
  if (value.includes('reactiveCompactPending')) {
    return [{ type: 'reactive_compact_result', ok: true, postCompactMessages: [] }, { type: 'reactive_compact_result', ok: false }];
  }
  if (value.includes('stopHooks')) {
    return [
      { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false },
      { type: 'stop_hooks_result', blockingErrors: ['run the tests'], preventContinuation: false },
      { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: true },
      // After an abort: no hook had answered (silent) or one had (interrupted).
      { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false, hookCount: 0 },
      abort[1],
    ];
  }
  return [];
}

/** The state value plus the few flags guards read, bucketed, so the abstract graph stays small. */
function serializeState(snapshot: Snapshot): string {
  const c = snapshot.context as MachineContext;
  return JSON.stringify([
    snapshot.value,
    c.iter.withheld?.type === 'assistant' ? c.iter.withheld.apiError?.kind : null,
    c.iter.assistantMessages.length > 0,
    c.iter.toolUses.length - c.iter.answeredToolUseIds.length,
    c.iter.streamingToolsStarted,
    c.iter.abortReason,
    c.iter.preventContinuation,
    c.hasAttemptedReactiveCompact,
    c.maxOutputTokensRecoveryCount,
    c.maxOutputTokensOverride !== null,
    c.transition?.reason ?? null,
    c.autoCompactTracking?.consecutiveFailures ?? 0,
    c.stopHookBlockingCount,
    c.modelCalls,
    c.turnCount,
    c.tokens.reported > 100_000,
    c.tokenBudget.continuationCount,
    c.currentModel,
    c.pendingToolUseSummary?.summary === null ? 'pending' : c.pendingToolUseSummary ? 'ready' : null,
  ]);
}

const limits = { maxModelCalls: 3, maxStopHookBlocking: 1, maxOutputTokensRecovery: 1, autocompactMaxFailures: 1 };
const on = { autoCompact: true, reactiveCompact: true, contextCollapse: true, historySnip: true, microcompact: true, toolResultBudget: true, tokenBudget: true, maxOutputTokensCap: true, streamingToolExecution: true, toolUseSummaries: true };
const off = Object.fromEntries(Object.keys(on).map((k) => [k, false])) as typeof on;
const base: LoopParams = { messages: [{ type: 'user', uuid: 'u0', message: { role: 'user', content: 'hi' } }], runId: 'cov' };

/** Starting points: everything on (with every optional param), everything off, and two mixes for guards that need both. */
const STARTS: Array<{ name: string; config: LoopConfig; params: LoopParams }> = [
  { name: 'all on', config: resolveConfig({ features: on, limits }), params: { ...base, fallbackModel: 'claude-opus-4-1', maxTurns: 2, tokenBudget: 100_000 } },
  { name: 'all off', config: resolveConfig({ features: off, limits }), params: base },
  {
    name: 'non-streaming, reactive only',
    config: resolveConfig({ features: { ...off, reactiveCompact: true, toolUseSummaries: true }, limits: { ...limits, maxStopHookBlocking: 0 } }),
    params: { ...base, maxTurns: 1 },
  },
  { name: 'autocompact only', config: resolveConfig({ features: { ...off, autoCompact: true }, limits: { ...limits, maxModelCalls: 4 } }), params: base },
  // Extension `maxBudgetUsd`: a cap below one worst call stops the run before its first call.
  { name: 'spend cap', config: resolveConfig({ features: off, limits: { ...limits, maxModelCalls: 2, maxCostUsd: 0.01 } }), params: base },
];

describe('model-based coverage of the loop statechart (xstate/graph)', () => {
  test('every transition of the machine is taken by at least one generated path', () => {
    const edges = machineEdges();
    const taken = new Set<TransitionDefinition>();
    let pathCount = 0;
    for (const start of STARTS) {
      const input = machineInput(start.params, start.config);
      const paths = getShortestPaths(loopMachine, { input, events: eventsFor, serializeState, limit: 200_000 });
      for (const path of paths) {
        const events = path.steps.map((s) => s.event as { type: string }).filter((e) => e.type !== 'xstate.init') as LoopEvent[];
        // Each path, and each one-event extension of it: together they take every edge of the abstract graph.
        edgesTakenAlong(input, events, taken);
        pathCount++;
        for (const extra of eventsFor(path.state as Snapshot)) {
          edgesTakenFrom(path.state, extra, taken);
          pathCount++;
        }
      }
    }
    const missing = edges.filter((edge) => !taken.has(edge.definition)).map((edge) => edge.label);
    // The 17 labelled outcomes: each Continue reason (meta.continue) and each Terminal (a final state) is reached.
    const outcomes = new Set<string>();
    for (const edge of edges.filter((e) => taken.has(e.definition))) {
      const meta = (edge.definition as { meta?: { continue?: string } }).meta?.continue;
      if (meta) outcomes.add(meta);
      for (const target of edge.definition.target ?? []) if (target.type === 'final') outcomes.add(target.key);
    }
    console.log(
      `statechart edge coverage: ${edges.length - missing.length}/${edges.length} edges, ` +
        `${outcomes.size}/${CONTINUE_REASONS.length + TERMINAL_REASONS.length} outcomes, over ${pathCount} paths`,
    );
    expect(missing).toEqual([]);
    expect([...outcomes].sort()).toEqual([...CONTINUE_REASONS, ...TERMINAL_REASONS].sort());
  }, 300_000); // CPU-bound path generation: on a loaded 2-core machine it has taken over 3 minutes
});
