/**
 * One readable line per emitted message, for transcripts and live progress. Pure.
 */
import type { Message, UserContentBlock } from '../../messages/types.ts';

const MAX = 160;

/** Collapses whitespace and cuts long text with an ellipsis. */
export function clip(text: string, max = MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function contentText(content: string | UserContentBlock[] | Extract<UserContentBlock, { type: 'tool_result' }>['content']): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

/** Lines for one message (an assistant message or a user message may carry several blocks). */
export function messageLines(message: Message): string[] {
  switch (message.type) {
    case 'user': {
      const content = message.message.content;
      if (typeof content !== 'string' && content.some((b) => b.type === 'tool_result')) {
        return content.flatMap((block) =>
          block.type === 'tool_result' ? [`  ← ${block.is_error ? 'error ' : ''}result ${block.tool_use_id}: ${clip(contentText(block.content))}`] : [],
        );
      }
      return [`${message.isMeta ? 'meta' : 'user'}: ${clip(contentText(content))}`];
    }
    case 'assistant': {
      if (message.apiError) return [`API error (${message.apiError.kind}): ${clip(message.apiError.text)}`];
      return message.message.content.map((block) => {
        switch (block.type) {
          case 'text':
            return `assistant: ${clip(block.text)}`;
          case 'tool_use':
            return `assistant → ${block.name} ${clip(JSON.stringify(block.input), 120)} (${block.id})`;
          case 'thinking':
            return `thinking: ${clip(block.thinking)}`;
          case 'redacted_thinking':
            return 'thinking: [redacted]';
        }
      });
    }
    case 'system':
      return [`system [${message.subtype}]: ${clip(message.content)}`];
    case 'attachment':
      return [`attachment: ${message.attachment.type}${'message' in message.attachment ? ` (${clip(message.attachment.message, 80)})` : ''}`];
    case 'tombstone':
      return [`tombstone: withdraws ${message.targetUuid}`];
    case 'tool_use_summary':
      return [`summary: ${clip(message.summary)}`];
  }
}
