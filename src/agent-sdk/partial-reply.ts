/**
 * The streamed part of a reply an interrupt cut short, as the real executable keeps it (claude 2.1.334, probed with
 * test/agent-sdk/programs/fidelity-interrupts.ts): an assistant message of the text streamed so far, marked
 * `aborted: true`, written before the interruption note and sent in the next request before that note. The original
 * loop keeps nothing of an unfinished block (docs/loop.md §1; drift `partialBlockOnInterrupt`): this is the SDK
 * session's behaviour only (Extension `sdkPartialReplyOnInterrupt`); the loop and its other callers keep the
 * original's. A partial tool_use or thinking block is dropped, as claude drops it (`abandoned_blocks`).
 */
import type { AssistantMessage, Usage } from '../messages/types.ts';

interface StreamEvent {
  type?: unknown;
  index?: unknown;
  message?: { id?: unknown; model?: unknown; usage?: unknown };
  content_block?: { type?: unknown; text?: unknown };
  delta?: { type?: unknown; text?: unknown };
}

/** Folds one request's stream events into the text seen so far. */
export class PartialReply {
  private id = '';
  private model = '';
  private usage: Usage | undefined;
  /** Text blocks by index, in the order they started. */
  private texts = new Map<number, string>();

  /** A new request starts, or its reply came whole: nothing streamed is pending. */
  reset(): void {
    this.id = '';
    this.model = '';
    this.usage = undefined;
    this.texts = new Map();
  }

  add(raw: unknown): void {
    const event = (raw ?? {}) as StreamEvent;
    if (event.type === 'message_start') {
      this.reset();
      this.id = typeof event.message?.id === 'string' ? event.message.id : '';
      this.model = typeof event.message?.model === 'string' ? event.message.model : '';
      if (event.message?.usage && typeof event.message.usage === 'object') this.usage = event.message.usage as Usage;
      return;
    }
    if (typeof event.index !== 'number') return;
    if (event.type === 'content_block_start' && event.content_block?.type === 'text') {
      this.texts.set(event.index, typeof event.content_block.text === 'string' ? event.content_block.text : '');
    } else if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta' && typeof event.delta.text === 'string') {
      const sofar = this.texts.get(event.index);
      if (sofar !== undefined) this.texts.set(event.index, sofar + event.delta.text);
    }
  }

  /** The assistant message of what streamed, or undefined when no text did. */
  message(uuid: string): AssistantMessage | undefined {
    const content = [...this.texts.values()].filter((text) => text !== '').map((text) => ({ type: 'text' as const, text }));
    if (content.length === 0) return undefined;
    return {
      type: 'assistant',
      uuid,
      message: { id: this.id, role: 'assistant', model: this.model, content, stop_reason: null, ...(this.usage ? { usage: this.usage } : {}) },
    };
  }
}
