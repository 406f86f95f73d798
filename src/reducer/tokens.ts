/**
 * Token accounting (SPEC §6). The last usage the API reported is authoritative; only what came after it is
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
 * The context size of a history: the usage of the last assistant message that reports one, plus an estimate of
 * the messages after it. Walks back only to that message, so the cost follows the unreported tail.
 */
export function tokenCountWithEstimation(messages: readonly Message[]): number {
  let estimated = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.type === 'assistant' && !message.apiError && message.message.usage) {
      return usageTokens(message.message.usage) + estimated;
    }
    estimated += estimateMessageTokens(message);
  }
  return estimated;
}
