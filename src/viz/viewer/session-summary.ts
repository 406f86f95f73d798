/**
 * The session header's figures: the first prompt, how the session ended, its model calls, the tokens the model
 * reported and what they cost at list price (`src/config/prices.ts`), over every run of the tree (later runs and
 * subagents included). Pure; no DOM.
 */
import { costOfUsage, priceOf } from '../../config/prices.ts';
import type { RunNode, RunTree } from './run-tree.ts';

export interface SessionSummary {
  firstPrompt: string | null;
  /** The last main-thread run's terminal (engine), with the recorded ending for a transcript. */
  ending: string;
  /** The engine and the recording disagree somewhere (transcripts only). */
  differs: number;
  runs: number;
  modelCalls: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** USD at list price; null when some model has no known price (`unpriced` names them). */
  costUsd: number | null;
  unpriced: string[];
}

/** The main thread's runs: the root and its later runs (a transcript's next prompts), in order. */
export const mainRuns = (tree: RunTree): RunNode[] => [tree.root, ...tree.root.children.filter((c) => c.kind === 'run')];

function endingOf(run: RunNode): string {
  const engine = run.model.terminal ?? 'unfinished';
  if (!run.check) return engine;
  return run.check.ending.recorded === engine || run.check.ok ? engine : `${engine} (recorded: ${run.check.ending.recorded})`;
}

export function summarise(tree: RunTree, firstPrompt: string | null): SessionSummary {
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let cost = 0;
  const unpriced = new Set<string>();
  let modelCalls = 0;
  for (const run of tree.runs) {
    const model = run.model;
    modelCalls += model.stateAt(model.length - 1).context.modelCalls;
    const price = priceOf(model.config.model);
    for (const event of model.events) {
      if (event.type !== 'model_done' || !event.usage) continue;
      const u = event.usage;
      tokens.input += u.input_tokens;
      tokens.output += u.output_tokens;
      tokens.cacheRead += u.cache_read_input_tokens ?? 0;
      tokens.cacheWrite += u.cache_creation_input_tokens ?? 0;
      if (price) cost += costOfUsage(u, price);
      else unpriced.add(model.config.model);
    }
  }
  const main = mainRuns(tree);
  return {
    firstPrompt,
    ending: endingOf(main[main.length - 1]!),
    differs: tree.runs.filter((r) => r.check && !r.check.ok).length,
    runs: tree.runs.length,
    modelCalls,
    tokens,
    costUsd: unpriced.size > 0 ? null : cost,
    unpriced: [...unpriced],
  };
}

const numbers = new Intl.NumberFormat('en-US');

/** The header's line of figures. */
export function summaryFigures(s: SessionSummary): Array<[label: string, value: string]> {
  const t = s.tokens;
  const cache = t.cacheRead + t.cacheWrite > 0 ? ` · cache read ${numbers.format(t.cacheRead)}, written ${numbers.format(t.cacheWrite)}` : '';
  return [
    ['ending', s.ending],
    ['model calls', numbers.format(s.modelCalls)],
    ['tokens', `in ${numbers.format(t.input)} · out ${numbers.format(t.output)}${cache}`],
    ['cost', s.costUsd === null ? `unknown (no price for ${s.unpriced.join(', ')})` : `$${s.costUsd.toFixed(s.costUsd < 1 ? 4 : 2)} at list price`],
    ...(s.runs > 1 ? ([['runs', `${s.runs}${s.differs > 0 ? `, ${s.differs} ✗ engine ≠ recording` : ''}`]] as Array<[string, string]>) : []),
  ];
}
