/**
 * Usage the fake API reports when a reply does not script it, so that long simulations see the context grow and
 * shrink with the history. Pure; the figures are deterministic functions of the request and the reply:
 * - input tokens = ceil(characters of JSON(tools) + JSON(system) + JSON(messages) / 4), `cache_control` markers
 *   left out (the real API counts the tool definitions too); of those, what the prompt cache read or wrote is
 *   reported in the cache fields and not in `input_tokens`;
 * - output tokens = ceil(characters of the reply's content / 4), at least 1.
 * A scripted `usage` field wins; a reply that scripts `input_tokens` reports no cache tokens unless it scripts them.
 */
import type { CacheUsage } from './prompt-cache.ts';
import type { FakeContentBlock, FakeReply } from './script-schema.ts';

const CHARS_PER_TOKEN = 4;

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}

export function estimateInputTokens(requestBody: unknown): number {
  const body = (requestBody ?? {}) as { messages?: unknown; system?: unknown; tools?: unknown };
  const json = (value: unknown) => (value === undefined ? 0 : JSON.stringify(value, withoutCacheControl).length);
  const chars = json(body.messages ?? []) + json(body.system) + json(body.tools);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function withoutCacheControl(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}

/** Input tokens the model reads: the scripted figure (cache included) or the estimate. */
export function totalInputTokens(reply: Pick<FakeReply, 'usage'> | undefined, requestBody: unknown): number {
  const scripted = reply?.usage;
  if (scripted?.input_tokens === undefined) return estimateInputTokens(requestBody);
  return scripted.input_tokens + (scripted.cache_creation_input_tokens ?? 0) + (scripted.cache_read_input_tokens ?? 0);
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
export function resolveUsage(reply: FakeReply, requestBody: unknown, cache: CacheUsage = NO_CACHE): FakeUsage {
  const scripted = reply.usage ?? {};
  const computed = scripted.input_tokens === undefined ? cache : NO_CACHE;
  const creation = scripted.cache_creation_input_tokens ?? computed.cache_creation_input_tokens;
  const read = scripted.cache_read_input_tokens ?? computed.cache_read_input_tokens;
  return {
    input_tokens: scripted.input_tokens ?? Math.max(0, estimateInputTokens(requestBody) - (creation ?? 0) - (read ?? 0)),
    output_tokens: scripted.output_tokens ?? estimateOutputTokens(reply.content),
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: read,
  };
}

const NO_CACHE: CacheUsage = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
