/**
 * Turns a scripted reply into the SSE events of the Messages API, in its wire format:
 * `message_start`, then per block `content_block_start`, `content_block_delta`s, `content_block_stop`, then
 * `message_delta` (stop reason and output usage) and `message_stop`. No `ping` events are sent, so that
 * `cut_after_events: n` counts exactly the events listed here.
 *
 * Pure. Text and thinking arrive in pieces of at most `TEXT_PIECE_CHARS`; a tool input's JSON is split into
 * `JSON_PIECES` `input_json_delta`s (as the real API streams it); a thinking block ends with one `signature_delta`.
 * With `stream_error`, an `error` event (the API's error body) takes the place of event `after_events` and the stream
 * ends there, as the real API reports an overload in the middle of a stream.
 */
import { resolveUsage } from './estimate-usage.ts';
import type { CacheUsage } from './prompt-cache.ts';
import type { FakeContentBlock, FakeReply } from './script-schema.ts';

export const TEXT_PIECE_CHARS = 16;
export const JSON_PIECES = 3;

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface ReplyContext {
  requestBody: unknown;
  /** Used when the reply does not set `id`. */
  messageId: string;
  /** Used when the reply does not set `model` (normally the requested model). */
  model: string;
  /** What the prompt cache read and wrote for this request. */
  cache?: CacheUsage;
}

/** The stop reason a reply ends with when the script does not say. */
export function defaultStopReason(reply: FakeReply): string {
  if (reply.stop_reason) return reply.stop_reason;
  if (reply.truncate_last_block) return 'max_tokens';
  return reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** The tool_use id of block `index` of a reply (scripted, or derived from the message id). */
export function toolUseId(block: Extract<FakeContentBlock, { type: 'tool_use' }>, messageId: string, index: number): string {
  return block.id ?? `toolu_${messageId.replace(/^msg_/, '')}_${index}`;
}

export function replyToSseEvents(reply: FakeReply, context: ReplyContext): SseEvent[] {
  const id = reply.id ?? context.messageId;
  const usage = resolveUsage(reply, context.requestBody, context.cache);
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: reply.model ?? context.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.input_tokens,
            cache_creation_input_tokens: usage.cache_creation_input_tokens,
            cache_read_input_tokens: usage.cache_read_input_tokens,
            output_tokens: 1,
          },
        },
      },
    },
  ];
  reply.content.forEach((block, index) => {
    const truncated = reply.truncate_last_block === true && index === reply.content.length - 1;
    const [start, deltas] = blockStartAndDeltas(block, id, index);
    const sent = truncated ? deltas.slice(0, Math.max(1, Math.floor(deltas.length / 2))) : deltas;
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    for (const delta of sent) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    if (!truncated) events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: defaultStopReason(reply), stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  if (!reply.stream_error) return events;
  const { after_events: after, type, message } = reply.stream_error;
  return [...events.slice(0, after), { event: 'error', data: { type: 'error', error: { type, message } } }];
}

/** One SSE event on the wire. */
export function encodeSseEvent(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function blockStartAndDeltas(
  block: FakeContentBlock,
  messageId: string,
  index: number,
): [start: Record<string, unknown>, deltas: Array<Record<string, unknown>>] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: '' }, splitEvery(block.text, TEXT_PIECE_CHARS).map((text) => ({ type: 'text_delta', text }))];
    case 'thinking':
      return [
        { type: 'thinking', thinking: '', signature: '' },
        [
          ...splitEvery(block.thinking, TEXT_PIECE_CHARS).map((thinking) => ({ type: 'thinking_delta', thinking })),
          { type: 'signature_delta', signature: block.signature },
        ],
      ];
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: block.data }, []];
    case 'tool_use':
      return [
        { type: 'tool_use', id: toolUseId(block, messageId, index), name: block.name, input: {} },
        splitInto(JSON.stringify(block.input), JSON_PIECES).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      ];
  }
}

function splitEvery(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function splitInto(text: string, count: number): string[] {
  return splitEvery(text, Math.max(1, Math.ceil(text.length / count)));
}
