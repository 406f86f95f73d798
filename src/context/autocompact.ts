/**
 * The pure part of layer 4, autocompact (docs/loop.md §6), also used by reactive compact: the summarisation instruction,
 * the choice of recent messages to keep verbatim, and the post-compact history. The forked model call itself lives
 * in the interpreter (a Compactor, `src/data/deps.ts`).
 *
 * Invariants of `buildPostCompactMessages`:
 * - The result is `[compact_boundary, summary, ...kept, ...attachments]`; the boundary's `data` carries
 *   `preCompactTokens` and `trigger`, so the reducer can take "messages after the last boundary" (docs/loop.md §4.2).
 * - The summary is a meta user message: the engine wrote it for the model (docs/loop.md §1 "Meta message").
 * - `selectKeptMessages` keeps a suffix that starts at a safe cut (no tool_use/tool_result pair split, no API
 *   response split) and never edits a block, so the kept thinking blocks stay exactly as they were (docs/loop.md §10).
 */
import type { CompactionInput, IdGenerator } from '../data/context-layers.ts';
import type { Attachment, Message, SystemMessage, UserMessage } from '../messages/types.ts';
import { estimateMessageTokens } from '../rules/tokens.ts';
import { safeCutPoints } from './safe-cuts.ts';

export type CompactTrigger = CompactionInput['trigger'] | 'manual';

/** The instruction given to the forked compaction call (our own words). */
export function buildCompactionPrompt(): string {
  return [
    'Your context is nearly full. Write a summary of the conversation so far that lets you, or another engineer,',
    'carry on the work without reading the original messages. Do not call any tools.',
    '',
    'Cover, in this order:',
    '1. The goal: what the user asked for, in their words where they were precise, including later changes of mind.',
    '2. Decisions and constraints that still apply (conventions, things the user ruled out, agreed designs).',
    '3. Files and code: every file read, created or changed, with what matters about it; quote short snippets',
    '   that the next step depends on.',
    '4. Errors met and how each was resolved, or that it is still open.',
    '5. Where the work stands: what is done, what is half done, and the very next step.',
    '',
    'Be concrete: paths, names, commands and numbers beat descriptions. Leave out pleasantries and anything',
    'that no longer matters. Put the summary between <summary> and </summary>.',
  ].join('\n');
}

/** The summary inside `<summary>` tags of the model's reply, or the whole reply trimmed. */
export function extractCompactSummary(reply: string): string {
  const match = /<summary>([\s\S]*?)<\/summary>/.exec(reply);
  return (match ? match[1] : reply).trim();
}

function isTranscriptOnly(message: Message): boolean {
  return message.type === 'system' || message.type === 'tombstone' || message.type === 'tool_use_summary';
}

/** Index of the first block of the last API response, when that response carries thinking; else -1. */
function protectedThinkingStart(messages: readonly Message[]): number {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'assistant' && !m.apiError) {
      last = i;
      break;
    }
  }
  if (last < 0) return -1;
  const id = (messages[last] as Extract<Message, { type: 'assistant' }>).message.id;
  let first = last;
  let thinking = false;
  for (let i = last; i >= 0; i--) {
    const m = messages[i];
    if (m.type !== 'assistant') continue;
    if (m.message.id !== id) break;
    first = i;
    if (m.message.content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) thinking = true;
  }
  return thinking ? first : -1;
}

/**
 * The most recent messages worth keeping verbatim after a compaction: the longest suffix within `maxTokens` that
 * starts at a safe cut. When the last API response carries thinking, that response and what follows it are kept
 * even beyond `maxTokens` (the API needs the thinking of an unfinished tool-use turn). System, tombstone and
 * summary messages are left out (they are never sent to the model).
 *
 * @example
 * selectKeptMessages(history, 20_000) // e.g. the last exchange: assistant tool_use, its tool_result, ...
 */
export function selectKeptMessages(messages: readonly Message[], maxTokens: number): Message[] {
  const safe = safeCutPoints(messages);
  const mustKeepFrom = protectedThinkingStart(messages);
  let cut = messages.length;
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    tokens += estimateMessageTokens(messages[i]);
    if (tokens > maxTokens && (mustKeepFrom < 0 || i < mustKeepFrom)) break;
    if (safe[i]) cut = i;
  }
  // A protected response whose start is not a safe cut (a pair reaches in from before): back up to one.
  if (mustKeepFrom >= 0 && cut > mustKeepFrom) {
    cut = mustKeepFrom;
    while (cut > 0 && !safe[cut]) cut--;
  }
  return messages.slice(cut).filter((m) => !isTranscriptOnly(m));
}

export interface PostCompactInput {
  summary: string;
  keptMessages: readonly Message[];
  newId: IdGenerator;
  preCompactTokens: number;
  trigger: CompactTrigger;
  /** Context to re-attach after the kept messages (e.g. files or memory the model should still see). */
  attachments?: readonly Attachment[];
}

/** The text of the summary message. */
export function compactSummaryText(summary: string, keptCount: number): string {
  const tail = keptCount > 0 ? '\n\nThe most recent messages follow unchanged.' : '';
  return (
    'This conversation was compacted to free context. What happened before is summarised here; continue the ' +
    `work from where it stands, without asking the user to repeat anything.\n\n${summary}${tail}`
  );
}

/**
 * The history that replaces the working messages after a successful (auto or reactive) compaction.
 *
 * @example
 * buildPostCompactMessages({ summary, keptMessages, newId, preCompactTokens: 170_000, trigger: 'auto' })
 * // [compact_boundary, summary (meta user), ...keptMessages]
 */
export function buildPostCompactMessages(input: PostCompactInput): Message[] {
  const boundary: SystemMessage = {
    type: 'system',
    uuid: input.newId(),
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    data: { trigger: input.trigger, preCompactTokens: input.preCompactTokens, keptMessages: input.keptMessages.length },
  };
  const summary: UserMessage = {
    type: 'user',
    uuid: input.newId(),
    message: { role: 'user', content: compactSummaryText(input.summary, input.keptMessages.length) },
    isMeta: true,
  };
  const attachments: Message[] = (input.attachments ?? []).map((attachment) => ({
    type: 'attachment',
    uuid: input.newId(),
    attachment,
  }));
  return [boundary, summary, ...input.keptMessages, ...attachments];
}
