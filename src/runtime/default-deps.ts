/**
 * Production defaults of `query()`'s dependencies. Every one can be replaced through `options.deps`.
 */
import type { LoopConfig } from '../config/config.ts';
import { createForkedCompactor, type RunQuery } from './compaction/forked-compactor.ts';
import { createCollapseCell } from '../context/collapse-cell.ts';
import { createCollapseDrainer } from '../context/create-drainer.ts';
import { createContextLayerRunner } from '../context/default-context-layers.ts';
import { createFileToolResultStore } from '../context/result-store.ts';
import type { ToolUseSummarizer } from '../data/deps.ts';
import { createAnthropicModelCaller } from '../model/index.ts';
import type { QueryDeps } from './query-options.ts';
import { randomIds, systemClock } from './system-clock.ts';
import type { Tool } from '../tools/define-tool.ts';

function declaredResultSizes(tools: readonly Tool[]): Record<string, number> {
  return Object.fromEntries(tools.map((tool) => [tool.name, tool.maxResultSizeChars]));
}

/**
 * The default store of oversized tool results, one for every run: it holds nothing of a run (its root is the
 * relative `.turnloop/sessions`, its pointers are pure, and a write resolves the working directory when it
 * happens), so every run's store did the same. Made per run it cost a `path.join` each run, in the baseline tier
 * about 1% of a ten-turn run's time in a CPU profile (round 18).
 */
const DEFAULT_RESULT_STORE = createFileToolResultStore();

/** A short, model-free summary of the tools a turn used ("Read ×2, Edit"). */
export const summarizeToolUsesByName: ToolUseSummarizer = async ({ toolUseIds, messages }) => {
  const wanted = new Set(toolUseIds);
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.type !== 'assistant') continue;
    for (const block of message.message.content) {
      if (block.type === 'tool_use' && wanted.has(block.id)) counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
    }
  }
  const parts = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  return parts.length > 0 ? `Used ${parts.join(', ')}` : `Used ${toolUseIds.length} tool(s)`;
};

/**
 * `tools`: the run's tools when given as a list; their declared `maxResultSizeChars` set the tool-result budget's
 * per-tool limits (an unbounded one, like Read's, exempts the tool). `querySource`: the run's (no per-message budget for
 * an SDK run).
 */
export function createDefaultDeps(
  config: LoopConfig,
  overrides: Partial<QueryDeps> | undefined,
  runQuery: RunQuery,
  tools?: readonly Tool[],
  querySource?: string,
): QueryDeps {
  const callModel = overrides?.callModel ?? createAnthropicModelCaller();
  const compactor = createForkedCompactor({ config, callModel, runQuery, ...(overrides?.clock ? { clock: overrides.clock } : {}) });
  const collapse = createCollapseCell();
  return {
    callModel,
    runContextLayer: createContextLayerRunner({ config, store: DEFAULT_RESULT_STORE, collapse, ...(tools ? { maxResultChars: declaredResultSizes(tools) } : {}), ...(querySource === undefined ? {} : { querySource }) }),
    autocompact: compactor,
    reactiveCompact: compactor,
    drainCollapse: createCollapseDrainer(collapse),
    collectAttachments: () => [],
    summarizeToolUses: summarizeToolUsesByName,
    clock: systemClock,
    newId: randomIds,
  };
}
