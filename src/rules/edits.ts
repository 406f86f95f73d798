/**
 * Applies the edits a context layer returns (see `MessageEdit`) to a history. Pure; returns the same array when
 * there is nothing to do, so an idle layer costs nothing.
 */
import type { Message, UserMessage } from '../messages/types.ts';
import type { MessageEdit } from '../data/events.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

function replaceToolResult(message: UserMessage, toolUseId: string, content: string): UserMessage {
  const blocks = message.message.content;
  if (typeof blocks === 'string') return message;
  let changed = false;
  const next = blocks.map((block) => {
    if (block.type !== 'tool_result' || block.tool_use_id !== toolUseId) return block;
    changed = true;
    return { ...block, content };
  });
  return changed ? { ...message, message: { ...message.message, content: next } } : message;
}

function applyEdit(messages: Message[], edit: MessageEdit): Message[] {
  switch (edit.op) {
    case 'replace_tool_result':
      return messages.map((m) => (m.type === 'user' ? replaceToolResult(m, edit.toolUseId, edit.content) : m));
    case 'remove': {
      const drop = new Set(edit.uuids);
      return messages.filter((m) => !drop.has(m.uuid));
    }
    case 'replace_range': {
      const from = messages.findIndex((m) => m.uuid === edit.fromUuid);
      const to = messages.findIndex((m) => m.uuid === edit.toUuid);
      if (from < 0 || to < from) return messages;
      return [...messages.slice(0, from), ...edit.replacement, ...messages.slice(to + 1)];
    }
    default: {
      const unknownEdit: never = edit;
      throw new TurnloopError('UNKNOWN_MESSAGE_EDIT', `unknown message edit ${JSON.stringify(unknownEdit)}`);
    }
  }
}

export function applyEdits(messages: Message[], edits: readonly MessageEdit[]): Message[] {
  return edits.reduce(applyEdit, messages);
}
