/**
 * The non-streaming answer of the fake Messages API: the `Message` object the SSE events of a reply describe,
 * folded the way a client accumulates a stream (content blocks from their start and deltas, stop reason and
 * output usage from `message_delta`). Pure. Used for `"stream": false` requests, which the model adapter sends
 * after a broken stream (the original transport's non-streaming fallback).
 */
import type { SseEvent } from './reply-to-sse.ts';

type Block = Record<string, unknown> & { type: string };

export function sseEventsToMessage(events: readonly SseEvent[]): Record<string, unknown> {
  let message: Record<string, unknown> = {};
  const blocks: Block[] = [];
  const json: string[] = [];
  for (const { data } of events) {
    switch (data.type) {
      case 'message_start':
        message = { ...(data.message as Record<string, unknown>) };
        break;
      case 'content_block_start':
        blocks[data.index as number] = { ...(data.content_block as Block) };
        json[data.index as number] = '';
        break;
      case 'content_block_delta': {
        const block = blocks[data.index as number];
        const delta = data.delta as Record<string, string>;
        if (delta.type === 'text_delta') block.text = `${block.text ?? ''}${delta.text}`;
        else if (delta.type === 'thinking_delta') block.thinking = `${block.thinking ?? ''}${delta.thinking}`;
        else if (delta.type === 'signature_delta') block.signature = `${block.signature ?? ''}${delta.signature}`;
        else if (delta.type === 'input_json_delta') json[data.index as number] += delta.partial_json;
        break;
      }
      case 'message_delta': {
        const delta = data.delta as Record<string, unknown>;
        message.stop_reason = delta.stop_reason ?? null;
        message.stop_sequence = delta.stop_sequence ?? null;
        message.usage = { ...(message.usage as object), ...(data.usage as object) };
        break;
      }
    }
  }
  const content = blocks.map((block, index) => (block.type === 'tool_use' && json[index] ? { ...block, input: JSON.parse(json[index]) } : block));
  return { ...message, content };
}
