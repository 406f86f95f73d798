/**
 * Reading a Claude Code session transcript (JSON Lines) into engine messages.
 *
 * Invariants:
 * - Only `user`, `assistant` and `system`/`compact_boundary` lines matter to the loop; every other line type or
 *   system subtype (progress, queue-operation, file-history-snapshot, stop_hook_summary, …, and types unknown
 *   today) is skipped and COUNTED by type, never fatal.
 * - A line that is not JSON, or a user/assistant line without its `message`, is bad input
 *   (`TranscriptFormatError`, with file and line number).
 * - `parseTranscript` reads every line as one thread; a session file whose subagents are inline (1.0.x
 *   sidechains) is split into its threads first (`sidechains.ts`, via `session.ts`), each read by `transcriptOf`.
 * - Assistant lines keep their API message id (one line per content block, as in the engine); block fields the
 *   engine does not know (e.g. `caller`) are dropped.
 */
import { readFileSync } from 'node:fs';
import { LineFormatError } from '../replay/errors.ts';
import type { AssistantContentBlock, AssistantMessage, Message, SystemMessage, UserMessage, Usage } from '../messages/types.ts';

/** A transcript line that is not JSON, or not an object (unknown line types are skipped, never errors). */
export class TranscriptFormatError extends LineFormatError {
  override readonly code = 'TRANSCRIPT_MALFORMED';
  override readonly name = 'TranscriptFormatError';
}

export type TranscriptEntry =
  | { kind: 'assistant'; line: number; message: AssistantMessage }
  | { kind: 'user'; line: number; message: UserMessage; isMeta: boolean; isCompactSummary: boolean; toolUseIds: string[]; text: string }
  | { kind: 'compact_boundary'; line: number; message: SystemMessage; trigger: string; preTokens: number | null };

export interface Transcript {
  file: string;
  entries: TranscriptEntry[];
  /** Skipped lines by type (`progress`, `system:turn_duration`, …). */
  skipped: Record<string, number>;
  lines: number;
}

export type Json = Record<string, unknown>;

function assistantBlock(block: Json): AssistantContentBlock | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') };
    case 'thinking':
      return { type: 'thinking', thinking: String(block.thinking ?? ''), signature: String(block.signature ?? '') };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: String(block.data ?? '') };
    case 'tool_use':
      return { type: 'tool_use', id: String(block.id), name: String(block.name), input: block.input ?? {} };
    default:
      return null;
  }
}

function usageOf(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const u = raw as Json;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_creation_input_tokens: num(u.cache_creation_input_tokens),
    cache_read_input_tokens: num(u.cache_read_input_tokens),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: Json) => (b.type === 'text' ? String(b.text ?? '') : '')).join('');
}

function userEntry(o: Json, lineNo: number): TranscriptEntry {
  const message = o.message as Json;
  const content = message.content as UserMessage['message']['content'];
  const blocks = Array.isArray(content) ? content : [];
  const toolUseIds = blocks.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id);
  const isMeta = o.isMeta === true;
  const engine: UserMessage = { type: 'user', uuid: String(o.uuid ?? `line-${lineNo}`), message: { role: 'user', content } };
  if (isMeta) engine.isMeta = true;
  if (toolUseIds.length === 1) engine.sourceToolUseId = toolUseIds[0];
  return { kind: 'user', line: lineNo, message: engine, isMeta, isCompactSummary: o.isCompactSummary === true, toolUseIds, text: textOf(content) };
}

function assistantEntry(o: Json, lineNo: number): TranscriptEntry | null {
  const m = o.message as Json;
  const blocks = (Array.isArray(m.content) ? m.content : []).map((b: Json) => assistantBlock(b)).filter((b): b is AssistantContentBlock => b !== null);
  if (blocks.length === 0) return null;
  const usage = usageOf(m.usage);
  const message: AssistantMessage = {
    type: 'assistant',
    uuid: String(o.uuid ?? `line-${lineNo}`),
    message: { id: String(m.id ?? `line-${lineNo}`), role: 'assistant', model: String(m.model ?? 'unknown'), content: blocks, stop_reason: (m.stop_reason as string | null) ?? null, ...(usage ? { usage } : {}) },
  };
  return { kind: 'assistant', line: lineNo, message };
}

function boundaryEntry(o: Json, lineNo: number): TranscriptEntry {
  const meta = (o.compactMetadata ?? {}) as Json;
  const message: SystemMessage = { type: 'system', uuid: String(o.uuid ?? `line-${lineNo}`), subtype: 'compact_boundary', content: String(o.content ?? 'Conversation compacted'), level: 'info' };
  return { kind: 'compact_boundary', line: lineNo, message, trigger: String(meta.trigger ?? 'unknown'), preTokens: typeof meta.preTokens === 'number' ? meta.preTokens : null };
}

/** One JSON object of a transcript file, with its 1-based line number. */
export interface TranscriptLine {
  line: number;
  json: Json;
}

/** The JSON objects of transcript text, blank lines left out (bad JSON is a `TranscriptFormatError`). */
export function parseTranscriptLines(text: string, file = '<transcript>'): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new TranscriptFormatError(file, i + 1, 'expected one JSON object per line');
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TranscriptFormatError(file, i + 1, 'expected a JSON object');
    out.push({ line: i + 1, json: json as Json });
  }
  return out;
}

/** The transcript of some lines of a file (all of them, or one thread: see `sidechains.ts`). */
export function transcriptOf(lines: readonly TranscriptLine[], file: string): Transcript {
  const entries: TranscriptEntry[] = [];
  const skipped: Record<string, number> = {};
  const skip = (type: string) => void (skipped[type] = (skipped[type] ?? 0) + 1);
  for (const { line: lineNo, json: o } of lines) {
    const type = typeof o.type === 'string' ? o.type : '(no type)';
    if (type === 'user' || type === 'assistant') {
      const message = o.message as Json | undefined;
      if (!message || typeof message !== 'object') throw new TranscriptFormatError(file, lineNo, `expected a "message" object on a ${type} line`);
      if (type === 'user') entries.push(userEntry(o, lineNo));
      else {
        const entry = assistantEntry(o, lineNo);
        if (entry) entries.push(entry);
        else skip('assistant:empty');
      }
    } else if (type === 'system' && o.subtype === 'compact_boundary') {
      entries.push(boundaryEntry(o, lineNo));
    } else {
      skip(type === 'system' ? `system:${String(o.subtype ?? '?')}` : type);
    }
  }
  return { file, entries, skipped, lines: lines.length };
}

/** Parses transcript text (every line, whatever thread it belongs to). */
export function parseTranscript(text: string, file = '<transcript>'): Transcript {
  return transcriptOf(parseTranscriptLines(text, file), file);
}

export function readTranscript(path: string): Transcript {
  return parseTranscript(readFileSync(path, 'utf8'), path);
}

/** Engine messages of a list of entries, in order (history building). */
export function messagesOf(entries: readonly TranscriptEntry[]): Message[] {
  return entries.map((entry) => entry.message);
}
