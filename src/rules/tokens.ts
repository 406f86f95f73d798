/**
 * Token accounting (docs/loop.md §6), as the original counts: the last API response's usage is authoritative; what
 * came after it is estimated at characters / 4, rounded to the nearest token, per block, with no per-message
 * overhead. This is a pure function of its inputs.
 *
 * Original (Claude Code 2.1.88): `services/tokenEstimation.ts:203-208` (round(chars / 4)), `:327-431` (per
 * message, per block; image and document blocks 2,000 each; tool_use = name + JSON input), `utils/tokens.ts:226-261`
 * (usage of the last response + estimate of every message after its FIRST block).
 */
import type { Message, Usage } from '../messages/types.ts';

/** Characters per token of the estimate. */
export const CHARS_PER_TOKEN = 4;

/** Tokens an image or document block is counted as, whatever its size (the API bills them by area/pages). */
const MEDIA_BLOCK_TOKENS = 2_000;

/** `round(chars / 4)`: the original's rough estimate of one piece of text. */
export function estimateTextTokens(chars: number): number {
  return Math.round(chars / CHARS_PER_TOKEN);
}

function blockTokens(block: unknown): number {
  if (typeof block === 'string') return estimateTextTokens(block.length);
  if (block === null || typeof block !== 'object') return 0;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return estimateTextTokens(String(b.text ?? '').length);
    case 'thinking':
      return estimateTextTokens(String(b.thinking ?? '').length);
    case 'redacted_thinking':
      return estimateTextTokens(String(b.data ?? '').length);
    case 'tool_use':
      return estimateTextTokens(String(b.name ?? '').length + JSON.stringify(b.input ?? {}).length);
    case 'tool_result':
      return contentTokens(b.content);
    case 'image':
    case 'document':
      return MEDIA_BLOCK_TOKENS;
    default:
      return estimateTextTokens(JSON.stringify(b).length);
  }
}

function contentTokens(content: unknown): number {
  if (typeof content === 'string') return estimateTextTokens(content.length);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const block of content) total += blockTokens(block);
  return total;
}

/** Estimated tokens of one message as the model would see it (0 for messages never sent to the API). */
export function estimateMessageTokens(message: Message): number {
  switch (message.type) {
    case 'user':
      return contentTokens(message.message.content);
    case 'assistant':
      // API-error messages are never sent to the model.
      return message.apiError ? 0 : contentTokens(message.message.content);
    case 'attachment':
      return estimateTextTokens(JSON.stringify(message.attachment).length);
    case 'system': {
      // Only a compaction summary carried by a boundary reaches the API (as user text, to-api-messages.ts).
      const summary = message.subtype === 'compact_boundary' ? message.data?.summary : undefined;
      return typeof summary === 'string' ? estimateTextTokens(summary.length) : 0;
    }
    default:
      return 0;
  }
}

/** Estimated tokens of a list of messages. */
export function estimateTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** Everything a response's usage says about the context size: input + cache reads/writes + output. */
export function usageTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    usage.output_tokens
  );
}

/**
 * The context size of a history: the usage reported with the last API response plus an estimate of every message
 * after that response's FIRST block. A response spans several messages (one per block) and tool results can land
 * between them; the original anchors at the first block, so the response's later blocks are estimated on top of
 * the output the usage already counts (utils/tokens.ts:226-261). Walks back only that far: the cost follows the tail.
 */
export function tokenCountWithEstimation(messages: readonly Message[]): number {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'assistant' && !m.apiError && m.message.usage) {
      last = i;
      break;
    }
  }
  if (last < 0) return estimateTokens(messages);
  const anchor = messages[last] as Extract<Message, { type: 'assistant' }>;
  const responseId = anchor.message.id;
  let first = last;
  for (let i = last - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'assistant' && m.message.id === responseId) first = i;
    else if (m.type === 'assistant' && !m.apiError) break;
  }
  return usageTokens(anchor.message.usage as Usage) + estimateTokens(messages.slice(first + 1));
}
