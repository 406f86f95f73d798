/**
 * Streaming input: the prompt is an async iterable of user messages; each runs the next turn of one conversation
 * and ends with its own result. The second message is sent after the first result, then the input ends.
 */
import { query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const streamingInputTwoTurns: SdkProgram = {
  name: 'streaming input, two user messages',
  script: () => ({ model: [text('First answer.'), text('Second answer.')] }),
  async run({ options, api, observed }, seen) {
    let firstResult!: () => void;
    const firstDone = new Promise<void>((resolve) => (firstResult = resolve));
    const user = (content: string): SDKUserMessage => ({ type: 'user', message: { role: 'user', content }, parent_tool_use_id: null });
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield user('First question.');
      await firstDone;
      yield user('Second question.');
    }
    for await (const message of query({ prompt: prompts(), options })) {
      seen.push(message);
      if (message.type === 'result') firstResult();
      if (seen.filter((m) => m.type === 'result').length === 2) break; // the program is done: close the session
    }
    const last = api.log.at(-1)?.body as { messages?: Array<{ role: string }> } | undefined;
    observed.secondRequestRoles = (last?.messages ?? []).map((m) => m.role).filter((role, i, all) => role !== all[i - 1]);
    observed.sessions = new Set(seen.flatMap((m) => ('session_id' in m ? [m.session_id] : []))).size;
  },
};
