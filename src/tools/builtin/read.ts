/**
 * `Read`: a text file of the root with line numbers (`     7\ttext`), optionally from line `offset` (1-based) for
 * `limit` lines. Read-only and concurrency-safe. Long lines are cut so one huge line cannot flood the context.
 * Only regular files are read (see `open-confined.ts`), at most `READ_MAX_BYTES` of them, and the read stops when
 * the call is aborted.
 */
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { NotRegularFileError, openConfinedFile, readUpTo } from './open-confined.ts';

export const READ_DEFAULT_LIMIT = 2_000;
export const READ_MAX_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2_000;

const readInput = z.strictObject({
  file_path: z.string().min(1).describe('File to read, relative to the workspace root (or absolute inside it).'),
  offset: z.number().int().min(1).optional().describe('First line to show, counting from 1.'),
  limit: z.number().int().min(1).optional().describe(`How many lines to show (default ${READ_DEFAULT_LIMIT}).`),
});

export function formatNumberedLines(lines: readonly string[], firstLineNumber: number): string {
  return lines
    .map((line, i) => {
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut]` : line;
      return `${String(firstLineNumber + i).padStart(6)}\t${shown}`;
    })
    .join('\n');
}

export function createReadTool(root: string): Tool<z.output<typeof readInput>> {
  return defineTool({
    name: 'Read',
    description: 'Reads a text file of the workspace and returns its lines numbered from 1. Use offset/limit for big files.',
    inputSchema: readInput,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: 'cancel',
    async call({ file_path, offset = 1, limit = READ_DEFAULT_LIMIT }, ctx) {
      let file;
      try {
        file = await openConfinedFile(root, file_path);
      } catch (error) {
        if (error instanceof NotRegularFileError && error.kind === 'a directory') {
          return { content: `Error: ${error.requested || '.'} is a directory; use Glob to list it.`, isError: true };
        }
        throw error;
      }
      const { relative } = file.path;
      let bytes: Buffer | null;
      try {
        bytes = await readUpTo(file.handle, READ_MAX_BYTES, ctx.signal);
      } finally {
        await file.handle.close();
      }
      if (bytes === null) {
        return { content: `Error: ${relative} is larger than ${READ_MAX_BYTES} bytes; search it with Grep instead.`, isError: true };
      }
      const text = bytes.toString('utf8');
      if (text === '') return { content: `(${relative} is empty)` };
      const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
      if (offset > lines.length) {
        return { content: `(${relative} has ${lines.length} lines; nothing at line ${offset})` };
      }
      const shown = lines.slice(offset - 1, offset - 1 + limit);
      const rest = lines.length - (offset - 1) - shown.length;
      const more = rest > 0 ? `\n(${rest} more lines; read on with offset ${offset + shown.length})` : '';
      return { content: formatNumberedLines(shown, offset) + more };
    },
  });
}
