/**
 * Layer 1 of the context pipeline: history snip (docs/loop.md §6). This is a pure function.
 *
 * Invariants:
 * - Runs only when `tokenCount > triggerRatio × autocompact threshold`; then drops the oldest messages until the
 *   estimate falls to `SNIP_TARGET_SHARE` of that trigger (the gap keeps snip from firing, and from changing the
 *   cached prefix, on every step).
 * - Drops one contiguous run that starts right after the first user message (which states the task and is never
 *   dropped; anything before it, e.g. a compact boundary, is kept too) and ends at a safe cut
 *   (`safeCutPoints`): no tool_use is separated from its tool_result, no API response is split.
 * - At least `keepRecentMessages` of the most recent messages are kept.
 * - The dropped run is replaced IN PLACE by one `snip_boundary` system message (a single `replace_range` edit), so
 *   the history itself shows where the gap is; the same boundary is also returned in `emitted` for consumers.
 * - `tokensFreed` = estimate of the dropped messages minus the boundary's own estimate (never negative): reported
 *   usage cannot see what snip removed, so autocompact and the blocking check subtract it (docs/loop.md §4.4).
 */
import type { SnipConfig } from '../config/config.ts';
import type { Message, SystemMessage } from '../messages/types.ts';
import { estimateMessageTokens } from '../rules/tokens.ts';
import type { ContextLayerOutcome, IdGenerator } from '../data/context-layers.ts';
import { firstUserIndex, safeCutPoints } from './safe-cuts.ts';

/** After a snip the estimate should be at most this share of the trigger level. */
export const SNIP_TARGET_SHARE = 0.8;

export interface SnipInput {
  messages: readonly Message[];
  tokenCount: number;
  /** The autocompact threshold of the current model (`contextThresholds(...).autocompact`). */
  autocompactThreshold: number;
  config: SnipConfig;
  newId: IdGenerator;
}

/** The marker left where messages were snipped. */
export function snipBoundary(uuid: string, removedCount: number, tokensFreed: number): SystemMessage {
  return {
    type: 'system',
    uuid,
    subtype: 'snip_boundary',
    content: `Older messages were removed to save context (${removedCount} messages, about ${tokensFreed} tokens).`,
    level: 'info',
    data: { removedCount, tokensFreed },
  };
}

/** The snip trigger level in tokens. */
export function snipTrigger(autocompactThreshold: number, config: SnipConfig): number {
  return Math.floor(config.triggerRatio * autocompactThreshold);
}

/**
 * Drops the oldest whole exchanges when the history nears the autocompact threshold.
 *
 * @example
 * snipHistory({ messages, tokenCount: 160_000, autocompactThreshold: 167_000, config: DEFAULT_CONFIG.snip, newId })
 * // { edits: [{ op: 'replace_range', fromUuid, toUuid, replacement: [snipBoundary] }], tokensFreed, emitted }
 */
export function snipHistory(input: SnipInput): ContextLayerOutcome {
  const { messages, tokenCount, config } = input;
  const none: ContextLayerOutcome = { edits: [], tokensFreed: 0 };
  const trigger = snipTrigger(input.autocompactThreshold, config);
  if (tokenCount <= trigger) return none;

  const start = firstUserIndex(messages) + 1;
  const lastAllowedCut = messages.length - Math.max(0, config.keepRecentMessages);
  if (start <= 0 || lastAllowedCut <= start) return none;

  const mustFree = tokenCount - Math.floor(trigger * SNIP_TARGET_SHARE);
  const safe = safeCutPoints(messages);
  let freed = 0;
  let cut = -1;
  for (let i = start; i < lastAllowedCut; i++) {
    freed += estimateMessageTokens(messages[i]);
    if (safe[i + 1]) {
      cut = i + 1;
      if (freed >= mustFree) break;
    }
  }
  if (cut < 0) return none;

  let dropped = 0;
  for (let i = start; i < cut; i++) dropped += estimateMessageTokens(messages[i]);
  const boundary = snipBoundary(input.newId(), cut - start, dropped);
  const tokensFreed = Math.max(0, dropped - estimateMessageTokens(boundary));
  return {
    edits: [{ op: 'replace_range', fromUuid: messages[start].uuid, toUuid: messages[cut - 1].uuid, replacement: [boundary] }],
    tokensFreed,
    emitted: [boundary],
  };
}
