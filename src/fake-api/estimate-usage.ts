/**
 * Usage the fake API reports when a reply does not script it, so that long simulations see the context grow and
 * shrink with the history. Pure; the figures are deterministic functions of the request and the reply:
 * - input tokens = ceil(characters of JSON(messages) + JSON(system) / 4);
 * - output tokens = ceil(characters of the reply's content / 4), at least 1.
 */
import type { FakeContentBlock, FakeReply } from './script-schema.ts';

const CHARS_PER_TOKEN = 4;

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}

export function estimateInputTokens(requestBody: unknown): number {
  const body = (requestBody ?? {}) as { messages?: unknown; system?: unknown };
  const chars = JSON.stringify(body.messages ?? []).length + (body.system === undefined ? 0 : JSON.stringify(body.system).length);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function blockChars(block: FakeContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thinking.length;
    case 'redacted_thinking':
      return block.data.length;
    case 'tool_use':
      return block.name.length + JSON.stringify(block.input).length;
  }
}

export function estimateOutputTokens(content: readonly FakeContentBlock[]): number {
  const chars = content.reduce((sum, block) => sum + blockChars(block), 0);
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN));
}

/** The scripted usage, with every missing field computed. */
export function resolveUsage(reply: FakeReply, requestBody: unknown): FakeUsage {
  const scripted = reply.usage ?? {};
  return {
    input_tokens: scripted.input_tokens ?? estimateInputTokens(requestBody),
    output_tokens: scripted.output_tokens ?? estimateOutputTokens(reply.content),
    cache_creation_input_tokens: scripted.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: scripted.cache_read_input_tokens ?? 0,
  };
}
