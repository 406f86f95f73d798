/**
 * The content of a `user` message a program sends on stdin, as a turn's prompt: taken as it is when it is a string
 * or content blocks, and refused with a reason otherwise (the turn then ends with an error result naming it).
 */
import type { UserContentBlock } from '../messages/types.ts';

/** A user message's content as our history holds it. */
export function userContentOf(content: unknown): string | UserContentBlock[] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content as UserContentBlock[];
  return String(content ?? '');
}

/**
 * Why `content` cannot be a turn's prompt (a program sent, say, `[null]`), or undefined when it can: a string, or
 * content blocks (objects with a string `type`).
 */
export function userContentProblem(content: string | UserContentBlock[]): string | undefined {
  if (typeof content === 'string') return undefined;
  const at = content.findIndex((block: unknown) => typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string');
  if (at < 0) return undefined;
  return `a user message's content must be a string or content blocks (objects with a string type); block ${at} is ${JSON.stringify(content[at]) ?? String(content[at])}`;
}
