/**
 * Engine history → the `messages` of a Messages API request. Pure.
 *
 * Invariants:
 * - Only what the model should read is sent: user and assistant messages, attachments (as meta user text) and
 *   compaction summaries (`compact_boundary` system messages that carry a string `data.summary`, as user text).
 *   Assistant API-error messages, tombstones, tool-use summaries and other system messages are dropped.
 * - Roles alternate: consecutive user-side messages merge into one user turn, consecutive assistant messages
 *   (one per content block, docs/loop.md §1) merge into one assistant turn, blocks in their original order.
 * - In a merged user turn the `tool_result` blocks come first (in order), then everything else, so a turn that
 *   answers a tool_use turn starts with its results (pairing, docs/loop.md §1). Nothing is ever reordered across turns.
 * - Empty and whitespace-only text blocks are dropped (the API rejects them; a recorded reply may hold a "\n\n" text
 *   block before its thinking); a turn left without blocks is dropped.
 * - An assistant turn of thinking blocks alone is dropped (the API refuses thinking as the last block of a turn): a
 *   reply cut at `max_tokens` inside a tool_use leaves only its thinking once the incomplete block is gone. The
 *   original drops such orphaned thinking too (docs/loop.md §1). The user turns around a dropped turn merge into one,
 *   so the next request reads U[prompt, recovery], as the original's does.
 *
 * Engine blocks mirror the API's block params, so they are passed through unchanged (the caller casts them to the
 * SDK's types once, in `build-request.ts`).
 */
import type { AssistantContentBlock, Attachment, Message, TextBlock, UserContentBlock } from '../messages/types.ts';

export type ApiMessageParam =
  | { role: 'user'; content: UserContentBlock[] }
  | { role: 'assistant'; content: AssistantContentBlock[] };

/** What one history message contributes: blocks of one role, to be merged with its neighbours of that role. */
export type Piece = { role: 'user'; blocks: UserContentBlock[] } | { role: 'assistant'; blocks: AssistantContentBlock[] };

/** Converts the working history into alternating API turns. */
export function toApiMessages(messages: readonly Message[]): ApiMessageParam[] {
  const turns: ApiMessageParam[] = [];
  for (const message of messages) {
    const piece = toPiece(message);
    if (!piece) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === piece.role) {
      (last.content as Array<UserContentBlock | AssistantContentBlock>).push(...piece.blocks);
    } else {
      turns.push(piece.role === 'user' ? { role: 'user', content: [...piece.blocks] } : { role: 'assistant', content: [...piece.blocks] });
    }
  }
  const sent: ApiMessageParam[] = [];
  for (const turn of turns) pushFinished(sent, turn);
  return sent;
}

/** How a raw turn went into the sent list: a turn of its own, merged into the last one, or nothing. */
export type Pushed = 'fresh' | 'merged' | 'dropped';

/**
 * Finishes `turn` and appends it to `sent`: a turn left empty is dropped, and a turn of the last sent turn's role
 * (its neighbour between them was dropped) merges into it as a new object (sent turns are never changed).
 */
export function pushFinished(sent: ApiMessageParam[], turn: ApiMessageParam): Pushed {
  const done = finishTurn(turn);
  if (done.content.length === 0) return 'dropped';
  const last = sent[sent.length - 1];
  if (last?.role !== done.role) {
    sent.push(done);
    return 'fresh';
  }
  const content = [...last.content, ...done.content] as Array<UserContentBlock & AssistantContentBlock>;
  sent[sent.length - 1] = finishTurn({ role: done.role, content });
  return 'merged';
}

export function toPiece(message: Message): Piece | null {
  switch (message.type) {
    case 'user': {
      const content = message.message.content;
      return { role: 'user', blocks: typeof content === 'string' ? [text(content)] : content };
    }
    case 'assistant':
      return message.apiError ? null : { role: 'assistant', blocks: message.message.content };
    case 'attachment': {
      const body = attachmentText(message.attachment);
      return body === null ? null : { role: 'user', blocks: [text(body)] };
    }
    case 'system': {
      const summary = message.subtype === 'compact_boundary' ? message.data?.summary : undefined;
      return typeof summary === 'string' ? { role: 'user', blocks: [text(summary)] } : null;
    }
    case 'tombstone':
    case 'tool_use_summary':
      return null;
  }
}

/** What the model reads for an attachment; `null` for attachments meant only for UIs. */
export function attachmentText(attachment: Attachment): string | null {
  switch (attachment.type) {
    case 'context':
      return `<context name="${attachment.name}">\n${attachment.content}\n</context>`;
    case 'hook_additional_context':
      return `<system-reminder>\n${attachment.hookName} hook additional context: ${attachment.content}\n</system-reminder>`;
    case 'queued_command':
      return attachment.prompt;
    case 'hook_blocking_error':
      return `A hook blocked this step: ${attachment.message}`;
    case 'hook_stopped_continuation':
      return `A hook stopped the conversation from continuing: ${attachment.message}`;
    case 'max_turns_reached':
      return null;
  }
}

/** A merged turn as sent: tool results first in a user turn, empty text blocks dropped. */
export function finishTurn(turn: ApiMessageParam): ApiMessageParam {
  if (turn.role === 'assistant') {
    const content = turn.content.filter(nonEmpty);
    return { role: 'assistant', content: content.every(isThinking) ? [] : content };
  }
  const results = turn.content.filter((block) => block.type === 'tool_result');
  const others = turn.content.filter((block) => block.type !== 'tool_result' && nonEmpty(block));
  return { role: 'user', content: [...results, ...others] };
}

function isThinking(block: AssistantContentBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

function nonEmpty(block: UserContentBlock | AssistantContentBlock): boolean {
  return block.type !== 'text' || block.text.trim().length > 0;
}

function text(value: string): TextBlock {
  return { type: 'text', text: value };
}
