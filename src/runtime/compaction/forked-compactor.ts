/**
 * Autocompact and reactive compact by a forked run of the loop itself (docs/loop.md §6 layer 4): the history plus a
 * summarisation prompt goes to the model with `querySource: 'compact'` (which never autocompacts nor hits the
 * blocking check), and the reply becomes the summary of the post-compact history.
 *
 * A media error is recovered without a model call: the offending images and documents are stripped.
 */
import type { LoopConfig } from '../../config/config.ts';
import { buildCompactionPrompt, buildPostCompactMessages, extractCompactSummary, selectKeptMessages } from '../../context/autocompact.ts';
import { stripMedia } from '../../context/media-strip.ts';
import type { Message, QueryItem } from '../../messages/types.ts';
import type { Terminal } from '../../data/outcomes.ts';
import { estimateTokens } from '../../rules/tokens.ts';
import type { Clock, Compactor, ModelCaller } from '../../data/deps.ts';
import type { RunLoopOptions } from '../query-options.ts';

export type RunQuery = (options: RunLoopOptions) => Promise<{ items: QueryItem[]; terminal: Terminal }>;

export interface ForkedCompactorOptions {
  config: LoopConfig;
  callModel: ModelCaller;
  runQuery: RunQuery;
  /** The clock of the forked run (its retries sleep on it); defaults to the real one. */
  clock?: Clock;
  /** Recent messages kept verbatim after the summary, in estimated tokens. */
  keepRecentTokens?: number;
}

function replyText(items: QueryItem[]): string {
  return items
    .flatMap((item) => (item.type === 'assistant' && !item.apiError ? item.message.content : []))
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}

export function createForkedCompactor(options: ForkedCompactorOptions): Compactor {
  const keepRecentTokens = options.keepRecentTokens ?? 20_000;
  return async (input) => {
    const preCompactTokens = input.tokenCount || estimateTokens(input.messages);
    if (input.trigger === 'media_size') {
      const stripped = stripMedia(input.messages);
      if (stripped.removed === 0) return { ok: false, error: 'no image or document to remove' };
      return { ok: true, postCompactMessages: stripped.messages, preCompactTokens };
    }
    const prompt: Message = {
      type: 'user',
      uuid: input.newId(),
      message: { role: 'user', content: buildCompactionPrompt() },
      isMeta: true,
    };
    const { items, terminal } = await options.runQuery({
      messages: [...input.messages.filter((m) => m.type === 'user' || m.type === 'assistant'), prompt],
      querySource: 'compact',
      maxTurns: 1,
      signal: input.signal,
      // No reactive compact inside the fork: a compaction request that is itself too long would start another
      // compaction of the same history, and so on without end. It fails instead (the circuit breaker counts it).
      config: { ...options.config, features: { ...options.config.features, tokenBudget: false, streamingToolExecution: false, reactiveCompact: false } },
      deps: { callModel: options.callModel, newId: input.newId, ...(options.clock ? { clock: options.clock } : {}) },
    });
    const summary = extractCompactSummary(replyText(items));
    if (terminal.reason !== 'completed' || summary.length === 0) {
      const apiError = items.findLast((item) => item.type === 'assistant' && item.apiError !== undefined);
      const cause = apiError?.type === 'assistant' && apiError.apiError ? `: ${apiError.apiError.text}` : '';
      return { ok: false, error: `compaction call ended with ${terminal.reason}${summary ? '' : ' and no summary'}${cause}` };
    }
    const kept = selectKeptMessages(input.messages, keepRecentTokens);
    const trigger = input.trigger === 'auto' ? 'auto' : input.trigger;
    const postCompactMessages = buildPostCompactMessages({ summary, keptMessages: kept, newId: input.newId, preCompactTokens, trigger });
    return { ok: true, postCompactMessages, preCompactTokens, postCompactTokens: estimateTokens(postCompactMessages) };
  };
}
