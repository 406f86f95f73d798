/** A concurrency-safe, read-only `Read` tool for end-to-end tests: returns `content(path)` for any path. */
import { z } from 'zod';
import { defineTool } from '../../src/tools/index.ts';

export function fakeReadTool(content: (path: string) => string) {
  return defineTool({
    name: 'Read',
    description: 'Reads a file',
    inputSchema: z.object({ path: z.string() }),
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    call: async ({ path }) => ({ content: content(path) }),
  });
}
