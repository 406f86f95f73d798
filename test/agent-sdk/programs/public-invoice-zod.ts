/**
 * Structured output the way the SDK's guide shows it with Zod: the schema is written once in Zod, sent as JSON
 * Schema (`z.toJSONSchema`, draft-07), and the result's `structured_output` is parsed back with the same schema. The agent
 * reads a file first; its first answer misses a field of a line and is corrected.
 */
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

const Invoice = z.object({
  vendor: z.string(),
  total: z.number(),
  lines: z.array(z.object({ item: z.string(), amount: z.number() })),
  paid: z.boolean().optional(),
});
type Invoice = z.infer<typeof Invoice>;

export const publicInvoiceZod: PublicProgram = {
  name: 'public: structured output from a Zod schema after reading a file',
  project: () => ({ 'invoice.txt': 'ACME Tools\nhammer 12.50\nnails 3.25\nTOTAL 15.75\n' }),
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_read', 'Read', { file_path: join(cwd, 'invoice.txt') }),
      toolCall('toolu_out_1', 'StructuredOutput', { vendor: 'ACME Tools', total: 15.75, lines: [{ item: 'hammer' }, { item: 'nails', amount: 3.25 }] }),
      toolCall('toolu_out_2', 'StructuredOutput', {
        vendor: 'ACME Tools', total: 15.75, lines: [{ item: 'hammer', amount: 12.5 }, { item: 'nails', amount: 3.25 }],
      }),
      text('Never asked for.'),
    ],
  }),
  async main({ engine, print }) {
    let invoice: Invoice | undefined;
    for await (const message of query({
      prompt: 'Extract the invoice in invoice.txt.',
      options: {
        ...engine,
        allowedTools: ['Read'],
        maxTurns: 6,
        // Draft-07: claude 2.1.334 refuses zod's default (draft 2020-12) schema; see docs/agent-sdk-conformance.md.
        outputFormat: { type: 'json_schema', schema: z.toJSONSchema(Invoice, { target: 'draft-7' }) },
      },
    })) {
      if (message.type === 'user' && Array.isArray(message.message.content)) {
        for (const block of message.message.content) {
          if (block.type === 'tool_result' && block.is_error) print(`tool error: ${typeof block.content === 'string' ? block.content : JSON.stringify(block.content)}`);
        }
      }
      if (message.type !== 'result') continue;
      if (message.subtype !== 'success') {
        print(`no invoice: ${message.subtype}`);
        continue;
      }
      const parsed = Invoice.safeParse(message.structured_output);
      if (!parsed.success) {
        print(`the output does not parse: ${parsed.error.message}`);
        continue;
      }
      invoice = parsed.data;
      print(`${invoice.vendor}: ${invoice.lines.length} lines, total ${invoice.total.toFixed(2)}`);
      print(`result text is the JSON: ${JSON.stringify(JSON.parse(message.result)) === JSON.stringify(invoice)}`);
      print(`turns: ${message.num_turns}`);
    }
    return invoice;
  },
};
