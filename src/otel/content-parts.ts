/**
 * Message content in the shape the GenAI conventions give `gen_ai.input.messages`, `gen_ai.output.messages` and
 * `gen_ai.system_instructions`: `{ role, parts: [{ type: 'text' | 'tool_call' | 'tool_call_response' | ... }] }`.
 * Pure. Media is described (type, size), never copied into a span.
 */
import type { AssistantContentBlock, Message, UserContentBlock } from '../messages/types.ts';
import { toApiMessages } from '../model/to-api-messages.ts';

export type Part = Record<string, unknown> & { type: string };

export interface ChatMessage {
  role: 'user' | 'assistant';
  parts: Part[];
  finish_reason?: string;
}

export function inputMessages(messages: readonly Message[]): ChatMessage[] {
  return toApiMessages(messages).map((turn) => ({ role: turn.role, parts: (turn.content as Array<UserContentBlock | AssistantContentBlock>).map(partOf) }));
}

export function outputMessage(blocks: readonly AssistantContentBlock[], finishReason: string | undefined): ChatMessage {
  return { role: 'assistant', parts: blocks.map(partOf), ...(finishReason ? { finish_reason: finishReason } : {}) };
}

export function systemInstructions(system: readonly string[]): Part[] {
  return system.map((content) => ({ type: 'text', content }));
}

function partOf(block: UserContentBlock | AssistantContentBlock): Part {
  switch (block.type) {
    case 'text':
      return { type: 'text', content: block.text };
    case 'thinking':
      return { type: 'reasoning', content: block.thinking };
    case 'redacted_thinking':
      return { type: 'reasoning', content: '[redacted thinking]' };
    case 'tool_use':
      return { type: 'tool_call', id: block.id, name: block.name, arguments: block.input };
    case 'tool_result':
      return { type: 'tool_call_response', id: block.tool_use_id, response: typeof block.content === 'string' ? block.content : block.content.map(partOf) };
    case 'image':
    case 'document':
      return block.source.type === 'url'
        ? { type: 'uri', modality: block.type, uri: block.source.url }
        : { type: 'blob', modality: block.type, mime_type: block.source.media_type, size: block.source.data.length };
    default: {
      const unknown: never = block;
      return { type: 'unknown', value: String((unknown as { type?: unknown }).type) };
    }
  }
}
