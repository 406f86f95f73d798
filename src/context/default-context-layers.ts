/**
 * The default ContextLayerRunner: dispatches each `context_layer` effect to its pure decision in `src/context` and
 * does the little I/O there is (storing replaced tool results). A layer whose feature switch is off is a no-op.
 *
 * State kept in the closure (per session): the frozen tool-result decisions and the collapse store (shared with
 * the drainer through a CollapseCell).
 */
import { type LoopConfig } from '../config/config.ts';
import { runContextCollapse } from './context-collapse.ts';
import { lastAssistantTimestamp, microcompact } from './microcompact.ts';
import { snipHistory } from './snip.ts';
import { budgetToolResults } from './tool-result-budget.ts';
import type { Message } from '../messages/types.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import { perMessageBudgetApplies, timeBasedMicrocompactApplies } from '../machine/queries.ts';
import type { ContextLayerInput, ContextLayerOutcome, ContextLayerRunner } from '../data/deps.ts';
import { createCollapseCell, type CollapseCell } from './collapse-cell.ts';
import type { ToolResultStore } from './result-store.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface ContextLayerRunnerOptions {
  config: LoopConfig;
  store: ToolResultStore;
  /** The model whose thresholds apply (it may change on fallback); default `config.model`. */
  model?: () => string;
  /** Tools with an unbounded result size: layer 0 never replaces their results. */
  exemptTools?: readonly string[];
  /** Each tool's declared `maxResultSizeChars` (Infinity = exempt), see `budgetToolResults`. */
  maxResultChars?: Readonly<Record<string, number>>;
  /**
   * The run's query source: an SDK run gets no per-message budget (`perMessageBudgetApplies`), and only main-thread
   * runs are microcompacted (`timeBasedMicrocompactApplies`). Absent: every layer applies.
   */
  querySource?: string;
  /** Shared with `createCollapseDrainer`; a fresh one by default. */
  collapse?: CollapseCell;
  /** Earlier tool-result decisions (e.g. restored on resume); updated in place. */
  decisions?: Record<string, string>;
  /** When the last assistant message arrived; default: its optional `timestamp` field. */
  lastAssistantAt?: (messages: readonly Message[]) => number | undefined;
  /** How many recent messages context collapse leaves alone; default `config.snip.keepRecentMessages`. */
  collapseKeepRecent?: number;
}

const NOTHING: ContextLayerOutcome = { edits: [], tokensFreed: 0 };

export function createContextLayerRunner(options: ContextLayerRunnerOptions): ContextLayerRunner {
  const { config, store } = options;
  const decisions = options.decisions ?? {};
  const cell = options.collapse ?? createCollapseCell();
  const model = options.model ?? (() => config.model);
  const lastAssistantAt = options.lastAssistantAt ?? lastAssistantTimestamp;
  const autocompactThreshold = () => contextThresholds(model(), config).autocompact;
  // Made once per runner, not on every turn's layer 0.
  const pointerFor = (id: string) => store.pointerFor(config.sessionId, id);

  /** Synchronous unless a result must be stored (the only I/O of any layer). */
  function toolResultBudget(input: ContextLayerInput): ContextLayerOutcome | Promise<ContextLayerOutcome> {
    const outcome = budgetToolResults({
      messages: input.messages,
      config: config.toolResultBudget,
      decisions,
      exemptTools: options.exemptTools,
      maxResultChars: options.maxResultChars,
      perMessage: options.querySource === undefined || perMessageBudgetApplies(options.querySource),
      pointerFor,
    });
    if (outcome.toStore.length === 0) {
      Object.assign(decisions, outcome.newDecisions);
      return { edits: outcome.edits, tokensFreed: outcome.tokensFreed };
    }
    return storeReplaced(outcome);
  }

  async function storeReplaced(outcome: ReturnType<typeof budgetToolResults>): Promise<ContextLayerOutcome> {
    const stored = await Promise.allSettled(outcome.toStore.map((r) => store.put(config.sessionId, r.toolUseId, r.content)));
    // A result that could not be stored stays whole: a preview must never point at nothing.
    const failed = new Set(outcome.toStore.filter((_, i) => stored[i].status === 'rejected').map((r) => r.toolUseId));
    for (const [id, content] of Object.entries(outcome.newDecisions)) if (!failed.has(id)) decisions[id] = content;
    if (failed.size === 0) return { edits: outcome.edits, tokensFreed: outcome.tokensFreed };
    return {
      edits: outcome.edits.filter((e) => !(e.op === 'replace_tool_result' && failed.has(e.toolUseId))),
      tokensFreed: 0,
    };
  }

  return (input) => {
    switch (input.layer) {
      case 'tool_result_budget':
        return config.features.toolResultBudget ? toolResultBudget(input) : NOTHING;
      case 'snip':
        if (!config.features.historySnip) return NOTHING;
        return snipHistory({
          messages: input.messages,
          tokenCount: input.tokenCount,
          autocompactThreshold: autocompactThreshold(),
          config: config.snip,
          newId: input.newId,
        });
      case 'microcompact':
        if (!config.features.microcompact) return NOTHING;
        if (options.querySource !== undefined && !timeBasedMicrocompactApplies(options.querySource)) return NOTHING;
        return microcompact({
          messages: input.messages,
          now: input.now,
          lastAssistantAt: lastAssistantAt(input.messages),
          config: config.microcompact,
        });
      case 'context_collapse': {
        if (!config.features.contextCollapse) return NOTHING;
        const { outcome, store: next } = runContextCollapse({
          messages: input.messages,
          tokenCount: input.tokenCount,
          store: cell.store,
          autocompactThreshold: autocompactThreshold(),
          keepRecentMessages: options.collapseKeepRecent ?? config.snip.keepRecentMessages,
          newId: input.newId,
        });
        cell.store = next;
        return outcome;
      }
      default: {
        const unknownLayer: never = input.layer;
        throw new TurnloopError('UNKNOWN_CONTEXT_LAYER', `unknown context layer ${String(unknownLayer)}`);
      }
    }
  };
}
