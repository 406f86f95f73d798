/**
 * Accumulates the raw SSE events of one streamed reply into assistant messages: ONE message per FINISHED content
 * block (text, thinking, redacted_thinking, tool_use), all sharing the API message id (docs/loop.md §1).
 *
 * Invariants:
 * - A block becomes a message only at its `content_block_stop`; a block that never got one (stream cut,
 *   `max_tokens` in the middle of it) never becomes a message. A tool_use whose streamed input JSON does not
 *   parse is unfinished too, and is dropped the same way.
 * - A finished block is held back until the next event arrives, so that the block that is pending when
 *   `message_delta` arrives carries the final `stop_reason` and usage (the last assistant message of a reply thus
 *   reports the reply's full usage, which token counting relies on). Earlier blocks carry `stop_reason: null` and
 *   the usage of `message_start`.
 * - Other block types (server tools, ...) are ignored; deltas of unknown blocks are ignored.
 * - Ids come from the injected generator, in the order messages are released; nothing here does I/O.
 */
import type { AssistantContentBlock, AssistantMessage, Usage } from '../messages/types.ts';

interface OpenBlock {
  type: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use';
  text: string;
  signature: string;
  data: string;
  id: string;
  name: string;
  initialInput: unknown;
  json: string;
}

type RawEvent = { type?: unknown; index?: unknown; [key: string]: unknown };

const BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

export class StreamAccumulator {
  private messageId = '';
  private model: string;
  private currentUsage: Usage | undefined;
  private currentStopReason: string | null = null;
  private readonly open = new Map<number, OpenBlock>();
  private held: AssistantContentBlock | null = null;
  private ended = false;
  private eventCount = 0;

  constructor(
    private readonly newId: () => string,
    fallbackModel: string,
  ) {
    this.model = fallbackModel;
  }

  /** True once `message_stop` arrived: the reply is complete. */
  get complete(): boolean {
    return this.ended;
  }
  /** Events received so far (a stream that breaks after some events needs a streaming fallback). */
  get events(): number {
    return this.eventCount;
  }
  get usage(): Usage | undefined {
    return this.currentUsage;
  }
  get stopReason(): string | null {
    return this.currentStopReason;
  }
  get apiMessageId(): string {
    return this.messageId;
  }
  get responseModel(): string {
    return this.model;
  }

  /** Feeds one raw stream event; returns the messages released by it, in order. */
  push(raw: unknown): AssistantMessage[] {
    this.eventCount += 1;
    const event = (raw ?? {}) as RawEvent;
    if (event.type === 'message_delta') this.applyMessageDelta(event);
    const released = this.release();
    switch (event.type) {
      case 'message_start':
        this.applyMessageStart(event);
        break;
      case 'content_block_start':
        this.startBlock(event);
        break;
      case 'content_block_delta':
        this.applyDelta(event);
        break;
      case 'content_block_stop':
        this.held = this.finishBlock(Number(event.index));
        break;
      case 'message_stop':
        this.ended = true;
        break;
    }
    return released;
  }

  /** Releases a block still held back (call once the stream ended cleanly). */
  flush(): AssistantMessage[] {
    return this.release();
  }

  private release(): AssistantMessage[] {
    if (!this.held) return [];
    const block = this.held;
    this.held = null;
    const message: AssistantMessage['message'] = {
      id: this.messageId,
      role: 'assistant',
      model: this.model,
      content: [block],
      stop_reason: this.currentStopReason,
    };
    if (this.currentUsage) message.usage = { ...this.currentUsage };
    return [{ type: 'assistant', uuid: this.newId(), message }];
  }

  private applyMessageStart(event: RawEvent): void {
    const message = (event.message ?? {}) as { id?: unknown; model?: unknown; usage?: unknown };
    if (typeof message.id === 'string') this.messageId = message.id;
    if (typeof message.model === 'string') this.model = message.model;
    this.currentUsage = mergeUsage(undefined, message.usage);
  }

  private applyMessageDelta(event: RawEvent): void {
    const delta = (event.delta ?? {}) as { stop_reason?: unknown };
    if (typeof delta.stop_reason === 'string') this.currentStopReason = delta.stop_reason;
    this.currentUsage = mergeUsage(this.currentUsage, event.usage);
  }

  private startBlock(event: RawEvent): void {
    const block = (event.content_block ?? {}) as Record<string, unknown>;
    if (typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type)) return;
    this.open.set(Number(event.index), {
      type: block.type as OpenBlock['type'],
      text: String(block.text ?? block.thinking ?? ''),
      signature: String(block.signature ?? ''),
      data: String(block.data ?? ''),
      id: String(block.id ?? ''),
      name: String(block.name ?? ''),
      initialInput: block.input ?? {},
      json: '',
    });
  }

  private applyDelta(event: RawEvent): void {
    const block = this.open.get(Number(event.index));
    const delta = (event.delta ?? {}) as Record<string, unknown>;
    if (!block) return;
    switch (delta.type) {
      case 'text_delta':
        block.text += String(delta.text ?? '');
        break;
      case 'thinking_delta':
        block.text += String(delta.thinking ?? '');
        break;
      case 'signature_delta':
        block.signature += String(delta.signature ?? '');
        break;
      case 'input_json_delta':
        block.json += String(delta.partial_json ?? '');
        break;
    }
  }

  private finishBlock(index: number): AssistantContentBlock | null {
    const block = this.open.get(index);
    this.open.delete(index);
    if (!block) return null;
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'thinking':
        return { type: 'thinking', thinking: block.text, signature: block.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data };
      case 'tool_use': {
        const input = parseToolInput(block);
        return input === undefined ? null : { type: 'tool_use', id: block.id, name: block.name, input };
      }
    }
  }
}

/** The tool input: the streamed JSON, or the start event's input when nothing was streamed; undefined if broken. */
function parseToolInput(block: OpenBlock): unknown {
  if (block.json.trim() === '') return block.initialInput;
  try {
    return JSON.parse(block.json) as unknown;
  } catch {
    return undefined;
  }
}

/** Usage of `message_start`, overridden by the non-null fields of a `message_delta` usage. */
function mergeUsage(base: Usage | undefined, raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return base;
  const next = raw as Record<string, unknown>;
  const pick = (key: keyof Usage): number | undefined => (typeof next[key] === 'number' ? (next[key] as number) : undefined);
  const usage: Usage = {
    input_tokens: pick('input_tokens') ?? base?.input_tokens ?? 0,
    output_tokens: pick('output_tokens') ?? base?.output_tokens ?? 0,
  };
  const creation = pick('cache_creation_input_tokens') ?? base?.cache_creation_input_tokens;
  const read = pick('cache_read_input_tokens') ?? base?.cache_read_input_tokens;
  if (creation !== undefined && creation !== null) usage.cache_creation_input_tokens = creation;
  if (read !== undefined && read !== null) usage.cache_read_input_tokens = read;
  return usage;
}
