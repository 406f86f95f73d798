/**
 * The fake API's prompt cache: which part of a request's input was written to or read from the cache, from its
 * `cache_control` breakpoints, as the real API reports it in `cache_creation_input_tokens` /
 * `cache_read_input_tokens`.
 *
 * Invariants:
 * - The prompt is read in the real API's order: tools, then system blocks, then message blocks; a prefix is
 *   identified by a hash chain over the model name and those blocks (their `cache_control` markers excluded, so
 *   moving a breakpoint does not change the prefix).
 * - At each breakpoint the cache is looked up at that block and at up to `LOOKBACK_BLOCKS - 1` block boundaries
 *   before it; the longest hit is read, the rest up to the last breakpoint is written. Every breakpoint prefix is
 *   then stored. A prefix shorter than `MIN_CACHEABLE_TOKENS` is never cached (the real API ignores it silently).
 * - Tokens are estimated like the rest of the fake (characters / 4); read + written never exceeds the total.
 * - One cache per server; entries never expire (simulations run on virtual time, far below the 5-minute TTL).
 */
import { createHash } from 'node:crypto';

export const LOOKBACK_BLOCKS = 20;
export const MIN_CACHEABLE_TOKENS = 1024;
const CHARS_PER_TOKEN = 4;

export interface CacheUsage {
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

interface PromptBlock {
  hash: string;
  /** Estimated tokens of the prompt up to and including this block. */
  tokens: number;
  breakpoint: boolean;
}

export interface PromptCache {
  /** Looks the request up, stores its breakpoint prefixes, and says what was read and written. */
  use(requestBody: unknown, totalInputTokens: number): CacheUsage;
}

export function createPromptCache(): PromptCache {
  const stored = new Set<string>();
  return {
    use(requestBody, totalInputTokens) {
      const blocks = promptBlocks(requestBody);
      const breakpoints = blocks.map((block, index) => ({ block, index })).filter(({ block }) => block.breakpoint && block.tokens >= MIN_CACHEABLE_TOKENS);
      if (breakpoints.length === 0) return { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      let read = 0;
      for (const { index } of breakpoints) {
        for (let at = index; at >= 0 && at > index - LOOKBACK_BLOCKS; at -= 1) {
          if (stored.has(blocks[at].hash)) {
            read = Math.max(read, blocks[at].tokens);
            break;
          }
        }
      }
      for (const { block } of breakpoints) stored.add(block.hash);
      const lastBreakpoint = breakpoints[breakpoints.length - 1].block.tokens;
      const cappedRead = Math.min(read, totalInputTokens);
      const written = Math.min(Math.max(0, lastBreakpoint - read), totalInputTokens - cappedRead);
      return { cache_creation_input_tokens: written, cache_read_input_tokens: cappedRead };
    },
  };
}

/** The prompt as a list of blocks in cache order, each with its prefix hash and prefix size. */
function promptBlocks(requestBody: unknown): PromptBlock[] {
  const body = (requestBody ?? {}) as { model?: unknown; tools?: unknown; system?: unknown; messages?: unknown };
  const parts: Array<{ role: string; block: unknown }> = [];
  if (Array.isArray(body.tools)) for (const tool of body.tools) parts.push({ role: 'tools', block: tool });
  if (typeof body.system === 'string') parts.push({ role: 'system', block: { type: 'text', text: body.system } });
  else if (Array.isArray(body.system)) for (const block of body.system) parts.push({ role: 'system', block });
  if (Array.isArray(body.messages)) {
    for (const message of body.messages as Array<{ role?: unknown; content?: unknown }>) {
      const role = String(message.role);
      if (typeof message.content === 'string') parts.push({ role, block: { type: 'text', text: message.content } });
      else if (Array.isArray(message.content)) for (const block of message.content) parts.push({ role, block });
    }
  }
  let hash = createHash('sha256').update(String(body.model)).digest('hex');
  let chars = 0;
  return parts.map(({ role, block }) => {
    const { cache_control: cacheControl, ...rest } = (block ?? {}) as Record<string, unknown>;
    const text = JSON.stringify(rest);
    chars += text.length;
    hash = createHash('sha256').update(hash).update(role).update(text).digest('hex');
    return { hash, tokens: Math.ceil(chars / CHARS_PER_TOKEN), breakpoint: cacheControl !== undefined && cacheControl !== null };
  });
}
