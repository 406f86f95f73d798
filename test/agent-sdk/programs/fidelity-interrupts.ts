/**
 * `interrupt()` and then a second prompt on the same session (issue 39, item 3): the marker the loop writes on an
 * interrupt is part of the history the next request sends, as a text block before the new prompt in one user turn.
 * During streaming: U[prompt1] A[partial] U[marker, prompt2]; during a tool: ... U[tool_result(error), marker, prompt2].
 */
import { createSdkMcpServer, query, tool, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import type { FakeApi, FakeScriptInput } from '../harness/fake-api.ts';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const user = (content: string): SDKUserMessage => ({ type: 'user', message: { role: 'user', content }, parent_tool_use_id: null });

/** Sends prompt 1, interrupts once `ready` holds, sends prompt 2 after the first result, ends after the second. */
async function interruptThenAsk(options: object, api: FakeApi, seen: SDKMessage[], ready: () => boolean): Promise<void> {
  let firstResult!: () => void;
  const firstDone = new Promise<void>((resolve) => (firstResult = resolve));
  async function* prompts(): AsyncGenerator<SDKUserMessage> {
    yield user('First question.');
    await firstDone;
    yield user('Second question.');
  }
  const run = query({ prompt: prompts(), options });
  const interrupted = (async () => {
    while (!ready()) await new Promise((resolve) => setTimeout(resolve, 20));
    await run.interrupt();
  })();
  for await (const message of run) {
    seen.push(message);
    if (message.type === 'result') firstResult();
    if (seen.filter((m) => m.type === 'result').length === 2) break;
  }
  await interrupted;
  void api;
}

export const fidelityInterruptWhileStreaming: SdkProgram = {
  name: 'an interrupt while streaming, then a second prompt',
  // The first reply streams its text slowly: the interrupt lands after the first text delta.
  script: (): FakeScriptInput => ({
    model: [{ content: [{ type: 'text', text: 'A long answer that is cut short.' }], eventDelayMs: 1_500 }, text('Second answer.')],
  }),
  async run({ options, api }, seen) {
    await interruptThenAsk({ ...options, includePartialMessages: true }, api, seen, () =>
      seen.some((m) => m.type === 'stream_event' && m.event.type === 'content_block_delta'),
    );
  },
};

export const fidelityInterruptDuringTool: SdkProgram = {
  name: 'an interrupt during a tool, then a second prompt',
  // A tool of an in-process MCP server that runs until the interrupt: a long Bash command the real executable
  // moves to the background instead (drift backgroundTasksByDefault), which is not this case.
  script: (): FakeScriptInput => ({
    model: [toolCall('toolu_wait_1', 'mcp__clock__wait', { seconds: 20 }), text('Second answer.')],
  }),
  async run({ options, api }, seen) {
    let running = false;
    const clock = createSdkMcpServer({
      name: 'clock',
      version: '1.0.0',
      tools: [
        tool('wait', 'Waits for some seconds', { seconds: z.number() }, async ({ seconds }) => {
          running = true;
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000).unref());
          return { content: [{ type: 'text', text: 'waited' }] };
        }),
      ],
    });
    const toolOptions = { ...options, mcpServers: { clock }, allowedTools: ['mcp__clock__wait'] };
    await interruptThenAsk(toolOptions, api, seen, () => running);
  },
};
