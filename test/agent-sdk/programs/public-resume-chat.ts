/**
 * A two-step chat kept across process restarts: the first query's session id is saved from the `init` message,
 * the second query resumes it and streams its answer token by token (`includePartialMessages`), as a chat UI does.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { text } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicResumeChat: PublicProgram = {
  name: 'public: resume by the init session id, then stream the answer',
  script: () => ({ model: [text('Nice to meet you, Ada.'), text('Your name is Ada.')] }),
  async main({ engine, print }) {
    let sessionId: string | undefined;
    for await (const message of query({ prompt: 'Hi, my name is Ada.', options: { ...engine, maxTurns: 3 } })) {
      if (message.type === 'system' && message.subtype === 'init') sessionId = message.session_id;
      if (message.type === 'result' && message.subtype === 'success') print(`first: ${message.result}`);
    }
    if (!sessionId) throw new Error('no session id in init');

    let streamed = '';
    let deltas = 0;
    let sameSession = true;
    for await (const message of query({
      prompt: 'What is my name?',
      options: { ...engine, resume: sessionId, includePartialMessages: true, maxThinkingTokens: 2048 },
    })) {
      if ('session_id' in message && message.session_id !== sessionId) sameSession = false;
      if (message.type === 'stream_event' && message.event.type === 'content_block_delta' && message.event.delta.type === 'text_delta') {
        streamed += message.event.delta.text;
        deltas++;
      }
      if (message.type === 'result') print(`second: ${message.subtype} "${message.subtype === 'success' ? message.result : ''}" after ${message.num_turns} turn(s)`);
    }
    print(`streamed: ${streamed} (${deltas > 0 ? 'in deltas' : 'no deltas'})`);
    print(`same session: ${sameSession}`);
    return { streamed };
  },
};
