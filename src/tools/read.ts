/**
 * `Read`: a text file of the root with line numbers (`     7\ttext`), optionally from line `offset` (1-based) for
 * `limit` lines. Read-only and concurrency-safe. Long lines are cut so one huge line cannot flood the context.
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type Tool } from '../effects/tools/define-tool.ts';
import { confinePath } from './confine-path.ts';

export const READ_DEFAULT_LIMIT = 2_000;
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
    async call({ file_path, offset = 1, limit = READ_DEFAULT_LIMIT }) {
      const file = await confinePath(root, file_path);
      if ((await stat(file.absolute)).isDirectory()) {
        return { content: `Error: ${file.relative || '.'} is a directory; use Glob to list it.`, isError: true };
      }
      const text = await readFile(file.absolute, 'utf8');
      if (text === '') return { content: `(${file.relative} is empty)` };
      const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
      if (offset > lines.length) {
        return { content: `(${file.relative} has ${lines.length} lines; nothing at line ${offset})` };
      }
      const shown = lines.slice(offset - 1, offset - 1 + limit);
      const rest = lines.length - (offset - 1) - shown.length;
      const more = rest > 0 ? `\n(${rest} more lines; read on with offset ${offset + shown.length})` : '';
      return { content: formatNumberedLines(shown, offset) + more };
    },
  });
}
