/** Small builders for context-layer tests: readable histories with deterministic ids. */
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  ToolResultBlock,
  UserContentBlock,
  UserMessage,
} from '../../../src/messages/types.ts';
import { applyEdits } from '../../../src/rules/edits.ts';
import type { MessageEdit } from '../../../src/data/events.ts';

export function ids(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

export function user(uuid: string, content: string | UserContentBlock[]): UserMessage {
  return { type: 'user', uuid, message: { role: 'user', content } };
}

export function assistant(uuid: string, responseId: string, ...content: AssistantContentBlock[]): AssistantMessage {
  return {
    type: 'assistant',
    uuid,
    message: { id: responseId, role: 'assistant', model: 'm', content, stop_reason: null },
  };
}

export const text = (t: string): AssistantContentBlock => ({ type: 'text', text: t });
export const thinking = (t: string): AssistantContentBlock => ({ type: 'thinking', thinking: t, signature: 'sig' });
export const toolUse = (id: string, name = 'Read', input: unknown = {}): AssistantContentBlock => ({
  type: 'tool_use',
  id,
  name,
  input,
});

export function toolResult(uuid: string, toolUseId: string, content: ToolResultBlock['content']): UserMessage {
  return {
    type: 'user',
    uuid,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content }] },
    sourceToolUseId: toolUseId,
  };
}

/** One tool round: assistant tool_use + its result (`size` characters). */
export function toolRound(n: number, size = 400, name = 'Read'): Message[] {
  return [assistant(`a${n}`, `r${n}`, toolUse(`t${n}`, name)), toolResult(`u${n}`, `t${n}`, 'x'.repeat(size))];
}

export function apply(messages: Message[], edits: readonly MessageEdit[]): Message[] {
  return applyEdits(messages, edits);
}

/** Every tool_use has exactly one tool_result after it, and every tool_result answers an earlier tool_use. */
export function isPaired(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.type === 'assistant') for (const b of m.message.content) if (b.type === 'tool_use') open.add(b.id);
    if (m.type === 'user' && typeof m.message.content !== 'string') {
      for (const b of m.message.content) {
        if (b.type !== 'tool_result') continue;
        if (!open.has(b.tool_use_id) || answered.has(b.tool_use_id)) return false;
        answered.add(b.tool_use_id);
      }
    }
  }
  return [...open].every((id) => answered.has(id));
}

export function resultContent(messages: readonly Message[], toolUseId: string): unknown {
  for (const m of messages) {
    if (m.type !== 'user' || typeof m.message.content === 'string') continue;
    for (const b of m.message.content) if (b.type === 'tool_result' && b.tool_use_id === toolUseId) return b.content;
  }
  return undefined;
}
