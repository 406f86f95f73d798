/**
 * System 5: Vercel AI SDK `generateText` with `MockLanguageModelV3` (from `ai/test`) answering from the script,
 * one `echo` tool with an `execute` function, and `stopWhen: stepCountIs(turns + 1)`.
 */
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { echo, PROMPT, prefilledHistory, type System, type TurnProbe } from '../workload.ts';

const usage = {
  inputTokens: { total: 1_000, noCache: 1_000, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

function scriptedModel(probe: TurnProbe, turns: number): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const answer = probe.next(turns);
      if (answer.kind === 'text') {
        return { content: [{ type: 'text', text: answer.text }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
      }
      return {
        content: [{ type: 'tool-call', toolCallId: answer.id, toolName: answer.name, input: JSON.stringify(answer.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      };
    },
  });
}

const tools = {
  echo: tool({
    description: 'Answers its text unchanged.',
    inputSchema: z.object({ text: z.string() }),
    execute: async (input) => echo(input),
  }),
};

export const aiSdkSystem: System = {
  name: 'Vercel AI SDK generateText + MockLanguageModelV3',
  label: 'ai-sdk',
  async run({ turns, history }, probe) {
    const messages: ModelMessage[] = prefilledHistory(history).map((e) => ({ role: e.role, content: e.text }));
    messages.push({ role: 'user', content: PROMPT });
    const result = await generateText({ model: scriptedModel(probe, turns), tools, messages, stopWhen: stepCountIs(turns + 1) });
    if (result.text !== 'All done.') throw new Error(`ai-sdk: unexpected final text ${JSON.stringify(result.text)}`);
    return { retained: result };
  },
};
