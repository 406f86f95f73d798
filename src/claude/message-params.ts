/**
 * Engine messages read from a Claude Code transcript → Anthropic message params (`{role, content}`), the form
 * `turnloop simulate` takes in `params.messages`. Pure.
 *
 * Invariants:
 * - What the model would have been sent, nothing more: the history starts at its last compact boundary (as the
 *   engine's initial state does, docs/loop.md §4.2), then goes through the request builder's own `toApiMessages` (roles
 *   alternate, one assistant turn per API response, tool results first in their user turn).
 * - Blocks are rebuilt key by key from the transcript's raw JSON, so fields Claude Code adds (`citations`,
 *   `caller`, ...) never reach the strict scenario schema. A block type the params cannot carry (e.g. a
 *   `tool_reference`) becomes a text block that names it: recorded content is reshaped, never invented.
 */
import type { MessageParam } from '../scenario/scenario-schema.ts';
import { toApiMessages } from '../model/to-api-messages.ts';
import type { AssistantContentBlock, DocumentBlock, ImageBlock, Message, TextBlock, UserContentBlock } from '../messages/types.ts';

type Json = Record<string, unknown>;
type MediaBlock = ImageBlock | DocumentBlock;

function omitted(type: unknown): TextBlock {
  return { type: 'text', text: `[${typeof type === 'string' ? type : 'unknown'} block omitted by import-claude]` };
}

function mediaSource(raw: unknown): MediaBlock['source'] | null {
  const s = (raw ?? {}) as Json;
  if (s.type === 'base64' && typeof s.media_type === 'string' && typeof s.data === 'string') return { type: 'base64', media_type: s.media_type, data: s.data };
  if (s.type === 'url' && typeof s.url === 'string') return { type: 'url', url: s.url };
  if (s.type === 'text' && typeof s.media_type === 'string' && typeof s.data === 'string') return { type: 'text', media_type: s.media_type, data: s.data };
  return null;
}

/** A text, image or document block (what tool results and user turns may hold), else its omission note. */
function leafBlock(raw: Json): TextBlock | MediaBlock {
  if (raw.type === 'text') return { type: 'text', text: String(raw.text ?? '') };
  if (raw.type === 'image' || raw.type === 'document') {
    const source = mediaSource(raw.source);
    if (source) return { type: raw.type, source } as MediaBlock;
  }
  return omitted(raw.type);
}

/**
 * A tool result's content as the scenario schema accepts it (a string, or text/image/document blocks).
 *
 * @example
 * toolResultContent([{ type: 'text', text: 'ok', citations: null }]) // [{ type: 'text', text: 'ok' }]
 */
export function toolResultContent(raw: unknown): string | Array<TextBlock | MediaBlock> {
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) return '';
  return raw.map((block: Json) => leafBlock(block ?? {}));
}

function userBlock(raw: Json): UserContentBlock {
  if (raw.type === 'tool_result') {
    return {
      type: 'tool_result',
      tool_use_id: String(raw.tool_use_id),
      content: toolResultContent(raw.content),
      ...(raw.is_error === true ? { is_error: true } : {}),
    };
  }
  return leafBlock(raw);
}

function cleanUser(message: Extract<Message, { type: 'user' }>): Message {
  const content = message.message.content;
  if (typeof content === 'string') return message;
  return { ...message, message: { role: 'user', content: (content as unknown as Json[]).map(userBlock) } };
}

/** The messages after the last compact boundary (the boundary itself included), as the engine starts a run. */
export function afterLastCompactBoundary(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'system' && m.subtype === 'compact_boundary') return messages.slice(i);
  }
  return [...messages];
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An assistant block as a param; a tool_use input that is not an object (never valid for the API) becomes `{}`. */
export function assistantParamBlock(block: AssistantContentBlock): Exclude<MessageParam['content'], string>[number] {
  return block.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, input: isRecord(block.input) ? block.input : {} } : block;
}

/**
 * Engine history → message params.
 *
 * @example
 * toMessageParams([boundary, summaryUser, promptUser]) // [{ role: 'user', content: [summary text, prompt text] }]
 */
export function toMessageParams(messages: readonly Message[]): MessageParam[] {
  const cleaned = afterLastCompactBoundary(messages).map((m) => (m.type === 'user' ? cleanUser(m) : m));
  return toApiMessages(cleaned).map((turn): MessageParam => (turn.role === 'user' ? turn : { role: 'assistant', content: turn.content.map(assistantParamBlock) }));
}
