/**
 * Token accounting (docs/loop.md §6). The last usage the API reported is authoritative; only what came after it is
 * estimated, conservatively (characters / 4, rounded up, per message). This is a pure function of its inputs.
 */
import type { Message, Usage } from '../messages/types.ts';

/** Characters per token of the estimate. Lower = more conservative. */
export const CHARS_PER_TOKEN = 4;

/** Fixed cost per message (role and framing). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** Tokens an image or document block is counted as, whatever its size (the API bills them by area/pages). */
const MEDIA_BLOCK_TOKENS = 2_000;

function blockChars(block: unknown): number {
  if (block === null || typeof block !== 'object') return String(block ?? '').length;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return String(b.text ?? '').length;
    case 'thinking':
      return String(b.thinking ?? '').length;
    case 'redacted_thinking':
      return String(b.data ?? '').length;
    case 'tool_use':
      return String(b.name ?? '').length + JSON.stringify(b.input ?? {}).length;
    case 'tool_result': {
      const content = b.content;
      if (typeof content === 'string') return content.length;
      if (Array.isArray(content)) return content.reduce((sum: number, part) => sum + blockChars(part), 0);
      return 0;
    }
    case 'image':
    case 'document':
      return MEDIA_BLOCK_TOKENS * CHARS_PER_TOKEN;
    default:
      return JSON.stringify(b).length;
  }
}

/** Estimated tokens of one message as the model would see it (0 for messages never sent to the API). */
export function estimateMessageTokens(message: Message): number {
  let chars: number;
  switch (message.type) {
    case 'user': {
      const content = message.message.content;
      chars = typeof content === 'string' ? content.length : content.reduce((sum, block) => sum + blockChars(block), 0);
      break;
    }
    case 'assistant':
      if (message.apiError) return 0;
      chars = message.message.content.reduce((sum, block) => sum + blockChars(block), 0);
      break;
    case 'attachment':
      chars = JSON.stringify(message.attachment).length;
      break;
    case 'system':
      // Only compaction summaries/boundaries reach the API (as user text); count them all, to stay conservative.
      chars = message.content.length;
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
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
 * The context size of a history: the usage reported with the last API response plus an estimate of everything
 * after that response began. A response spans several messages (one per block) and, with streaming tool
 * execution, tool results can land between its blocks; so the count anchors at the response's FIRST block:
 * its input (+ cache) usage, plus the larger of the reported output and the estimate of the response's blocks,
 * plus the estimate of every other message after it. Walks back only that far: the cost follows the tail.
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
  const usage = anchor.message.usage as Usage;
  let responseEstimate = 0;
  let othersEstimate = 0;
  for (let i = first; i < messages.length; i++) {
    const m = messages[i];
    const tokens = estimateMessageTokens(m);
    if (m.type === 'assistant' && m.message.id === responseId) responseEstimate += tokens;
    else othersEstimate += tokens;
  }
  return usageTokens(usage) - usage.output_tokens + Math.max(usage.output_tokens, responseEstimate) + othersEstimate;
}
