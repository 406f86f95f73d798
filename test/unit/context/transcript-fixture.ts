/**
 * Loads a real Claude Code session transcript (`test/fixtures/claude-code-transcripts/*.jsonl`) as engine
 * messages (`src/messages/types.ts`), in file order, plus the API calls it records.
 *
 * Invariants of the result:
 * - `messages` keeps the file order of the lines it maps; one assistant message per content block, as in the file
 *   (blocks of one API response share `message.id`), so tool results may sit between blocks of one response.
 * - Only what reaches the API is mapped: `user` lines (except `isVisibleInTranscriptOnly` ones that are not
 *   the compaction summary), `assistant` lines, and
 *   the `compact_boundary` system line (kept so that "messages after the last boundary" can be taken). Every other
 *   line (progress, snapshots, queue operations, other system lines) is skipped and counted in `skipped`.
 * - `calls[k]` is the k-th distinct API response: `firstIndex` is the position in `messages` of its first block, so
 *   `messages.slice(0, firstIndex)` is the history the engine had before that call.
 */
import { readFileSync } from 'node:fs';
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  SystemMessage,
  Usage,
  UserContentBlock,
  UserMessage,
} from '../../../src/messages/types.ts';

export interface TranscriptCall {
  messageId: string;
  /** Index in `messages` of the first block of this response. */
  firstIndex: number;
  /** The usage recorded with the first block (input side is final; `output_tokens` is a streaming snapshot). */
  usage: Usage;
}

export interface Transcript {
  messages: Message[];
  /** Time (ms since epoch) of each message, parallel to `messages`. */
  timestamps: number[];
  calls: TranscriptCall[];
  skipped: Record<string, number>;
}

interface RawLine {
  type?: string;
  subtype?: string;
  uuid?: string;
  timestamp?: string;
  isMeta?: boolean;
  isVisibleInTranscriptOnly?: boolean;
  /** The post-compaction summary: flagged transcript-only, yet sent to the API. */
  isCompactSummary?: boolean;
  content?: unknown;
  compactMetadata?: { trigger?: string; preTokens?: number };
  message?: {
    id?: string;
    role?: string;
    model?: string;
    content?: unknown;
    stop_reason?: string | null;
    usage?: Record<string, unknown>;
  };
}

function pickUsage(raw: Record<string, unknown> | undefined): Usage | undefined {
  if (!raw) return undefined;
  const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return {
    input_tokens: num(raw.input_tokens),
    output_tokens: num(raw.output_tokens),
    cache_creation_input_tokens: num(raw.cache_creation_input_tokens),
    cache_read_input_tokens: num(raw.cache_read_input_tokens),
  };
}

function toUserMessage(line: RawLine): UserMessage {
  const content = line.message?.content as string | UserContentBlock[];
  const message: UserMessage = { type: 'user', uuid: line.uuid!, message: { role: 'user', content } };
  if (line.isMeta) message.isMeta = true;
  if (Array.isArray(content)) {
    const result = content.find((b) => b.type === 'tool_result');
    if (result && result.type === 'tool_result') message.sourceToolUseId = result.tool_use_id;
  }
  return message;
}

function toAssistantMessage(line: RawLine): AssistantMessage {
  const m = line.message!;
  const usage = pickUsage(m.usage);
  return {
    type: 'assistant',
    uuid: line.uuid!,
    message: {
      id: m.id!,
      role: 'assistant',
      model: m.model ?? 'unknown',
      content: (m.content ?? []) as AssistantContentBlock[],
      stop_reason: m.stop_reason ?? null,
      ...(usage ? { usage } : {}),
    },
  };
}

function toCompactBoundary(line: RawLine): SystemMessage {
  return {
    type: 'system',
    uuid: line.uuid!,
    subtype: 'compact_boundary',
    content: String(line.content ?? 'compacted'),
    level: 'info',
    data: { preCompactTokens: line.compactMetadata?.preTokens ?? 0, trigger: line.compactMetadata?.trigger ?? 'auto' },
  };
}

/** Parses transcript text (one JSON object per line). */
export function parseTranscript(text: string): Transcript {
  const messages: Message[] = [];
  const timestamps: number[] = [];
  const calls: TranscriptCall[] = [];
  const skipped: Record<string, number> = {};
  const seenIds = new Set<string>();
  const skip = (kind: string) => {
    skipped[kind] = (skipped[kind] ?? 0) + 1;
  };

  for (const rawLine of text.split('\n')) {
    if (!rawLine.trim()) continue;
    const line = JSON.parse(rawLine) as RawLine;
    let message: Message | null = null;
    if (line.type === 'user' && line.message && (!line.isVisibleInTranscriptOnly || line.isCompactSummary)) {
      message = toUserMessage(line);
    } else if (line.type === 'assistant' && line.message?.id) {
      const assistant = toAssistantMessage(line);
      if (!seenIds.has(assistant.message.id) && assistant.message.usage) {
        seenIds.add(assistant.message.id);
        calls.push({ messageId: assistant.message.id, firstIndex: messages.length, usage: assistant.message.usage });
      }
      message = assistant;
    } else if (line.type === 'system' && line.subtype === 'compact_boundary') {
      message = toCompactBoundary(line);
    }
    if (!message) {
      skip(line.type === 'system' ? `system:${line.subtype}` : line.type === 'user' ? 'user:transcript-only' : String(line.type));
      continue;
    }
    messages.push(message);
    timestamps.push(line.timestamp ? Date.parse(line.timestamp) : Number.NaN);
  }
  return { messages, timestamps, calls, skipped };
}

export function loadTranscript(path: string): Transcript {
  return parseTranscript(readFileSync(path, 'utf8'));
}
