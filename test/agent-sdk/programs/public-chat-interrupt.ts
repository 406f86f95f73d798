/**
 * A chat loop over streaming input, the way chat front ends are built on the SDK: a queue of user messages is the
 * prompt, each answer streams in, and a "stop" button calls `interrupt()` while the second answer is still
 * streaming; the user then sends another message, which gets its own answer, and the chat is closed.
 */
import { query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { text } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

/** The user's side of the chat: `push` a line, `close` when done. */
class ChatInput implements AsyncIterable<SDKUserMessage> {
  private pending: SDKUserMessage[] = [];
  private waiting?: (next: IteratorResult<SDKUserMessage>) => void;
  private closed = false;

  push(line: string): void {
    const message: SDKUserMessage = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: line }] }, parent_tool_use_id: null };
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: message, done: false });
    } else this.pending.push(message);
  }

  close(): void {
    this.closed = true;
    this.waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    return {
      next: () => {
        const next = this.pending.shift();
        if (next) return Promise.resolve({ value: next, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

export const publicChatInterrupt: PublicProgram = {
  name: 'public: streaming input chat with an interrupt, then another message',
  script: () => ({
    model: [
      text('Hello! How can I help?'),
      // A slow answer: the user stops it after its first words.
      { content: [{ type: 'text', text: 'Once upon a time there was a very long story that never seemed to end.' }], eventDelayMs: 1500 },
      text('Goodbye!'),
    ],
  }),
  async main({ engine, print }) {
    const input = new ChatInput();
    const chat = query({ prompt: input, options: { ...engine, includePartialMessages: true } });
    const userSays = ['Hello.', 'Tell me a long story.', 'Never mind, bye.'];
    let sent = 0;
    const send = () => {
      print(`you: ${userSays[sent]}`);
      input.push(userSays[sent++]);
    };
    send();
    let interrupted = false;
    const endings: string[] = [];
    for await (const message of chat) {
      if (message.type === 'stream_event' && message.event.type === 'content_block_delta' && sent === 2 && !interrupted) {
        interrupted = true;
        print('(stop pressed)');
        await chat.interrupt();
      }
      if (message.type === 'assistant') {
        const said = message.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
        if (said) print(`claude: ${said}`);
      }
      if (message.type === 'result') {
        endings.push(message.subtype);
        print(`[${message.subtype}${message.is_error ? ', error' : ''}]`);
        if (sent < userSays.length) send();
        else input.close();
      }
    }
    return endings;
  },
};
