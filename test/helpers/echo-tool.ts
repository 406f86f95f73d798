/** A concurrency-safe `echo` tool for end-to-end tests: answers its `text` unchanged (the bench workload's tool). */
import { z } from 'zod';
import { defineTool } from '../../src/tools/index.ts';

export const echoTool = defineTool({
  name: 'echo',
  description: 'Answers its text unchanged.',
  inputSchema: z.object({ text: z.string() }),
  isConcurrencySafe: () => true,
  call: (input) => ({ content: input.text }),
});
