/** A tool of an in-process SDK MCP server (`createSdkMcpServer`) called by the model and answered by the program. */
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const sdkMcpServerTool: SdkProgram = {
  name: 'a tool of an in-process SDK MCP server',
  script: () => ({ model: [toolCall('toolu_add_1', 'mcp__calc__add', { a: 2, b: 3 }), text('2 + 3 = 5.')] }),
  async run({ options, observed }, seen) {
    const calls: unknown[] = [];
    observed.calls = calls;
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
          calls.push({ a, b });
          return { content: [{ type: 'text', text: String(a + b) }] };
        }),
      ],
    });
    await drain(
      query({ prompt: 'Add 2 and 3.', options: { ...options, mcpServers: { calc }, allowedTools: ['mcp__calc__add'] } }),
      seen,
    );
  },
};
