/**
 * Layer 3 of the context pipeline: context collapse (docs/loop.md §6). Pure functions over a plain-data store; the caller
 * keeps the store between calls.
 *
 * Invariants:
 * - A span is a contiguous run of messages that starts after the first user message, begins and ends at safe cuts
 *   (`safeCutPoints`: pairs and API responses stay whole) and leaves the `keepRecentMessages` latest messages alone.
 * - Spans are STAGED (pending) first and COMMITTED later; only committed spans change the history, through
 *   `replace_range` edits that swap the span for its summary. The projection emits nothing.
 * - Summaries are deterministic digests (counts, tool names, first lines), written without a model: a
 *   model-written summary is autocompact's job.
 * - Projection is idempotent: a committed span whose messages are gone (already replaced) yields no edit.
 * - `drainCollapses` commits every pending span still present; the reducer allows it once in a row (docs/loop.md §9.5).
 */
import type { Message, UserMessage } from '../messages/types.ts';
import type { MessageEdit } from '../data/events.ts';
import { estimateMessageTokens } from '../rules/tokens.ts';
import type { ContextLayerOutcome, IdGenerator } from '../data/context-layers.ts';
import { firstUserIndex, safeCutPoints } from './safe-cuts.ts';

export interface CollapseSpan {
  fromUuid: string;
  toUuid: string;
  /** Replaces the span once committed (a meta user message). */
  summary: UserMessage;
  /** Estimated tokens of the span when it was staged. */
  spanTokens: number;
}

export interface CollapseStore {
  committed: CollapseSpan[];
  pending: CollapseSpan[];
}

export const EMPTY_COLLAPSE_STORE: CollapseStore = { committed: [], pending: [] };

/** Staging starts when the estimate reaches this share of the autocompact threshold. */
export const COLLAPSE_STAGE_SHARE = 0.9;
/** A staged span aims to bring the estimate down to this share of the threshold. */
export const COLLAPSE_TARGET_SHARE = 0.7;
/** Lines of the digest listing the span's messages. */
const DIGEST_LINES = 12;
const DIGEST_LINE_CHARS = 120;

function firstLine(message: Message): string | null {
  let text = '';
  if (message.type === 'user') {
    const content = message.message.content;
    if (typeof content === 'string') text = content;
    else {
      const block = content.find((b) => b.type === 'text');
      if (block && block.type === 'text') text = block.text;
    }
  } else if (message.type === 'assistant') {
    const block = message.message.content.find((b) => b.type === 'text');
    if (block && block.type === 'text') text = block.text;
  }
  const line = text.trim().split('\n', 1)[0] ?? '';
  if (!line) return null;
  return `${message.type}: ${line.length > DIGEST_LINE_CHARS ? `${line.slice(0, DIGEST_LINE_CHARS)}…` : line}`;
}

/** A deterministic digest of a span: counts, tools used, and the first lines of its messages. */
export function summarizeSpan(span: readonly Message[]): string {
  let users = 0;
  let assistants = 0;
  let results = 0;
  const tools = new Map<string, number>();
  const lines: string[] = [];
  for (const message of span) {
    if (message.type === 'assistant') {
      assistants++;
      for (const block of message.message.content) {
        if (block.type === 'tool_use') tools.set(block.name, (tools.get(block.name) ?? 0) + 1);
      }
    } else if (message.type === 'user') {
      if (typeof message.message.content !== 'string' && message.message.content.some((b) => b.type === 'tool_result')) results++;
      else users++;
    }
    const line = firstLine(message);
    if (line && lines.length < DIGEST_LINES) lines.push(`- ${line}`);
  }
  const toolList = [...tools].map(([name, count]) => `${name}×${count}`).join(', ') || 'none';
  return [
    `[Earlier part of this conversation, collapsed to save context: ${span.length} messages ` +
      `(${users} user, ${assistants} assistant, ${results} tool results). Tools used: ${toolList}.]`,
    ...lines,
  ].join('\n');
}

function indexByUuid(messages: readonly Message[]): Map<string, number> {
  const index = new Map<string, number>();
  messages.forEach((m, i) => index.set(m.uuid, i));
  return index;
}

function spanEdit(span: CollapseSpan): MessageEdit {
  return { op: 'replace_range', fromUuid: span.fromUuid, toUuid: span.toUuid, replacement: [span.summary] };
}

function isPresent(span: CollapseSpan, index: Map<string, number>): boolean {
  const from = index.get(span.fromUuid);
  const to = index.get(span.toUuid);
  return from !== undefined && to !== undefined && from <= to;
}

const spanSavings = (span: CollapseSpan) => Math.max(0, span.spanTokens - estimateMessageTokens(span.summary));

/** Edits that swap every committed span still present in `messages` for its summary. */
export function projectCollapses(messages: readonly Message[], store: CollapseStore): ContextLayerOutcome {
  if (store.committed.length === 0) return { edits: [], tokensFreed: 0 };
  const index = indexByUuid(messages);
  const present = store.committed.filter((span) => isPresent(span, index));
  return { edits: present.map(spanEdit), tokensFreed: present.reduce((sum, span) => sum + spanSavings(span), 0) };
}

/** Commits every pending span still present; spans whose messages are gone are forgotten. */
export function drainCollapses(
  messages: readonly Message[],
  store: CollapseStore,
): { committed: number; edits: MessageEdit[]; tokensFreed: number; store: CollapseStore } {
  if (store.pending.length === 0) return { committed: 0, edits: [], tokensFreed: 0, store };
  const index = indexByUuid(messages);
  const present = store.pending.filter((span) => isPresent(span, index));
  return {
    committed: present.length,
    edits: present.map(spanEdit),
    tokensFreed: present.reduce((sum, span) => sum + spanSavings(span), 0),
    store: { committed: [...store.committed, ...present], pending: [] },
  };
}

export interface StageCollapseInput {
  messages: readonly Message[];
  store: CollapseStore;
  /** The span should hold about this many tokens (it stops at the first safe cut past it). */
  tokensToFree: number;
  keepRecentMessages: number;
  newId: IdGenerator;
}

/**
 * Stages the oldest collapsible span (after any summary or pending span already in place). Returns the store
 * unchanged when no span of at least two messages fits.
 */
export function stageCollapse(input: StageCollapseInput): CollapseStore {
  const { messages, store } = input;
  const index = indexByUuid(messages);
  let start = firstUserIndex(messages) + 1;
  if (start <= 0) return store;
  const summaryUuids = new Set(store.committed.map((span) => span.summary.uuid));
  messages.forEach((m, i) => {
    if (summaryUuids.has(m.uuid)) start = Math.max(start, i + 1);
  });
  for (const span of store.pending) start = Math.max(start, (index.get(span.toUuid) ?? -1) + 1);

  const safe = safeCutPoints(messages);
  const limit = messages.length - Math.max(0, input.keepRecentMessages);
  while (start < limit && !safe[start]) start++;
  let tokens = 0;
  let end = -1;
  let endTokens = 0;
  for (let i = start; i < limit; i++) {
    tokens += estimateMessageTokens(messages[i]);
    if (safe[i + 1] && i > start) {
      end = i;
      endTokens = tokens;
      if (tokens >= input.tokensToFree) break;
    }
  }
  if (end < 0) return store;
  const span = messages.slice(start, end + 1);
  const summary: UserMessage = {
    type: 'user',
    uuid: input.newId(),
    message: { role: 'user', content: summarizeSpan(span) },
    isMeta: true,
  };
  const staged: CollapseSpan = { fromUuid: messages[start].uuid, toUuid: messages[end].uuid, summary, spanTokens: endTokens };
  return { committed: store.committed, pending: [...store.pending, staged] };
}

export interface ContextCollapseInput {
  messages: readonly Message[];
  tokenCount: number;
  store: CollapseStore;
  autocompactThreshold: number;
  keepRecentMessages: number;
  newId: IdGenerator;
}

/**
 * One run of layer 3: project committed spans; at `COLLAPSE_STAGE_SHARE` of the threshold stage a span if none is
 * pending; at the threshold itself commit the pending spans, so that autocompact has nothing left to do.
 */
export function runContextCollapse(input: ContextCollapseInput): { outcome: ContextLayerOutcome; store: CollapseStore } {
  const projection = projectCollapses(input.messages, input.store);
  let store = input.store;
  const estimate = input.tokenCount - projection.tokensFreed;
  if (estimate >= COLLAPSE_STAGE_SHARE * input.autocompactThreshold && store.pending.length === 0) {
    store = stageCollapse({
      messages: input.messages,
      store,
      tokensToFree: estimate - Math.floor(COLLAPSE_TARGET_SHARE * input.autocompactThreshold),
      keepRecentMessages: input.keepRecentMessages,
      newId: input.newId,
    });
  }
  if (estimate < input.autocompactThreshold) return { outcome: projection, store };
  const drained = drainCollapses(input.messages, store);
  return {
    outcome: { edits: [...projection.edits, ...drained.edits], tokensFreed: projection.tokensFreed + drained.tokensFreed },
    store: drained.store,
  };
}
