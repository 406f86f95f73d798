/**
 * Media strip for a reactive compact after a media-size error (docs/loop.md §4.9.1): the history without its images and
 * documents. This is a pure function.
 *
 * Invariants:
 * - Only user messages change; each image or document block (at top level or inside a tool_result) becomes one
 *   text block saying what was removed, so the model knows something was there.
 * - Everything else keeps its identity: unchanged messages are the same objects, uuids and tool_use ids stay, so
 *   pairing is untouched.
 */
import type { DocumentBlock, ImageBlock, Message, TextBlock, UserContentBlock, UserMessage } from '../messages/types.ts';

export interface MediaStripResult {
  messages: Message[];
  /** Blocks replaced. */
  removed: number;
}

/** The note that stands for a removed image or document. */
export function removedMediaNote(block: ImageBlock | DocumentBlock): string {
  const kind = block.source.type === 'url' ? 'linked' : block.source.media_type;
  return `[${block.type === 'image' ? 'Image' : 'Document'} (${kind}) removed: it made the request too large]`;
}

function stripBlocks<B extends UserContentBlock>(blocks: readonly B[], count: { n: number }): Array<B | TextBlock> {
  return blocks.map((block) => {
    if (block.type === 'image' || block.type === 'document') {
      count.n++;
      return { type: 'text', text: removedMediaNote(block) } satisfies TextBlock;
    }
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      const before = count.n;
      const content = stripBlocks(block.content, count);
      return count.n === before ? block : { ...block, content };
    }
    return block;
  });
}

function stripMessage(message: UserMessage, count: { n: number }): UserMessage {
  const content = message.message.content;
  if (typeof content === 'string') return message;
  const before = count.n;
  const next = stripBlocks(content, count) as UserContentBlock[];
  return count.n === before ? message : { ...message, message: { ...message.message, content: next } };
}

/**
 * Replaces every image and document block of the user messages with a short text note.
 *
 * @example
 * stripMedia(history).removed // 2 after a screenshot and a PDF were pasted
 */
export function stripMedia(messages: readonly Message[]): MediaStripResult {
  const count = { n: 0 };
  const next = messages.map((m) => (m.type === 'user' ? stripMessage(m, count) : m));
  return { messages: next, removed: count.n };
}
