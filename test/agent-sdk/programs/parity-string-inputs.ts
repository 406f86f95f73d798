/**
 * Tool inputs whose number and boolean fields come as strings (issue #38): an SDK MCP tool with number, boolean,
 * nested and array fields, a Read with string `offset`/`limit`, a number field given "abc", and a StructuredOutput
 * answer with a string number. Observed: what each tool received, the input the assistant message shows, and
 * the results.
 */
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { toolCall } from './script-parts.ts';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'number' }, capital: { type: 'boolean' } },
  required: ['city', 'population', 'capital'],
  additionalProperties: false,
};

export const parityStringInputs: SdkProgram = {
  name: 'parity: number and boolean tool inputs given as strings',
  script: ({ cwd }) => ({
    model: [
      {
        stop_reason: 'tool_use',
        content: [
          { type: 'thinking', thinking: 'Calling tools.', signature: 'sig-offline' },
          { type: 'tool_use', id: 'toolu_mcp', name: 'mcp__calc__check', input: { count: '2', flag: 'true', off: 'false', neg: '-1.5', nested: { n: '3', b: 'false' }, list: ['4', '5'], text: '7', maybe: '8' } },
          { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${cwd}/lines.txt`, offset: '2', limit: '1' } },
        ],
      },
      toolCall('toolu_bad', 'mcp__calc__check', { count: 'abc', flag: 'yes', off: false, neg: 1, nested: { n: 1, b: true }, list: [], text: 'x', maybe: 1 }),
      toolCall('toolu_so', 'StructuredOutput', { city: 'Paris', population: '2102650', capital: 'true' }),
    ],
  }),
  async run({ options, observed, dirs }, seen) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dirs.cwd}/lines.txt`, 'one\ntwo\nthree\n');
    const received: unknown[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('check', 'Checks', {
          count: z.number(), flag: z.boolean(), off: z.boolean(), neg: z.number(), nested: z.object({ n: z.number(), b: z.boolean() }), list: z.array(z.number()), text: z.string(), maybe: z.union([z.number(), z.string()]),
        }, async (args) => {
          received.push(args);
          return { content: [{ type: 'text', text: 'checked' }] };
        }),
      ],
    });
    for await (const message of query({
      prompt: 'Check, read, answer.',
      options: { ...options, mcpServers: { calc }, allowedTools: ['mcp__calc__check', 'Read'], outputFormat: { type: 'json_schema', schema } },
    })) seen.push(message);
    observed.received = received;
    observed.shownInputs = seen.flatMap((m) => (m.type === 'assistant' ? m.message.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, input: b.input })) : []));
    type ToolResult = { type: string; tool_use_id: string; is_error?: boolean; content?: unknown };
    const blocks = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? (m.message.content as ToolResult[]) : []));
    observed.results = blocks.filter((b) => b.type === 'tool_result').map((b) => ({ id: b.tool_use_id, is_error: b.is_error, content: JSON.stringify(b.content).slice(0, 300) }));
    const result = seen.findLast((m) => m.type === 'result') as { structured_output?: unknown; subtype?: string } | undefined;
    observed.structured = result?.structured_output;
    observed.subtype = result?.subtype;
  },
};
