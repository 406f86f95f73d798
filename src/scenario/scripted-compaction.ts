/**
 * Scripted compactors of a scenario (`compaction: {autocompact, reactive, collapseDrain}`). Each key that is
 * present replaces one dependency of `query()`; an absent key leaves the real one (whose forked model calls go to
 * the fake API's `compactionModel`). Lists are consumed one outcome per call; a used-up list fails (compactors)
 * or commits nothing (collapse drain).
 */
import { buildPostCompactMessages, selectKeptMessages } from '../context/autocompact.ts';
import type { CollapseDrainer, Compactor } from '../data/deps.ts';
import type { QueryDeps } from '../runtime/query-options.ts';
import { estimateTokens } from '../rules/tokens.ts';
import type { CompactionScript } from './scenario-schema.ts';

/** Recent messages a scripted compaction keeps verbatim, in estimated tokens (as the real compactor does). */
const KEEP_RECENT_TOKENS = 20_000;

export const SCRIPTED_SUMMARY = 'Scripted summary: the user asked for a change; the work so far is summarised here.';

function scriptedCompactor(outcomes: ReadonlyArray<'ok' | 'fail'>, name: string): Compactor {
  let calls = 0;
  return async (input) => {
    const outcome = outcomes[calls] ?? 'fail';
    calls += 1;
    if (outcome === 'fail') return { ok: false, error: `scripted ${name} failure (call ${calls})` };
    const preCompactTokens = input.tokenCount || estimateTokens(input.messages);
    const keptMessages = selectKeptMessages(input.messages, KEEP_RECENT_TOKENS);
    const postCompactMessages = buildPostCompactMessages({ summary: SCRIPTED_SUMMARY, keptMessages, newId: input.newId, preCompactTokens, trigger: input.trigger });
    return { ok: true, postCompactMessages, preCompactTokens, postCompactTokens: estimateTokens(postCompactMessages) };
  };
}

function scriptedDrainer(committed: readonly number[]): CollapseDrainer {
  let calls = 0;
  return async () => ({ committed: committed[calls++] ?? 0, edits: [] });
}

/** The dependencies a compaction script replaces (none when there is no script). */
export function scriptedCompactionDeps(script: CompactionScript | undefined): Partial<QueryDeps> {
  if (!script) return {};
  return {
    ...(script.autocompact ? { autocompact: scriptedCompactor(script.autocompact, 'autocompact') } : {}),
    ...(script.reactive ? { reactiveCompact: scriptedCompactor(script.reactive, 'reactive compact') } : {}),
    ...(script.collapseDrain ? { drainCollapse: scriptedDrainer(script.collapseDrain) } : {}),
  };
}
