/**
 * `Grep`: a regular expression over the text files of the root (or of `path`), optionally filtered by a glob.
 * Answers `path:line: text` per matching line, in walk order. Read-only and concurrency-safe. Binary files (a NUL
 * byte) and files over 2 MB are skipped.
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type Tool } from '../effects/tools/define-tool.ts';
import { confinePath } from './confine-path.ts';
import { globToRegExp } from './glob-match.ts';
import { filesAt } from './walk-files.ts';

export const GREP_MAX_MATCHES = 500;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

const grepInput = z.strictObject({
  pattern: z.string().min(1).describe('JavaScript regular expression to look for, line by line.'),
  path: z.string().min(1).optional().describe('File or directory to search, relative to the root (default: the root).'),
  glob: z.string().min(1).optional().describe('Only search files whose path (relative to the root) matches this glob.'),
  ignore_case: z.boolean().optional(),
});

function compile(pattern: string, ignoreCase: boolean | undefined): RegExp | string {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function createGrepTool(root: string): Tool<z.output<typeof grepInput>> {
  return defineTool({
    name: 'Grep',
    description: 'Searches workspace files for a regular expression; answers "path:line: text" for each matching line.',
    inputSchema: grepInput,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: 'cancel',
    validateInput({ pattern, ignore_case }) {
      const regex = compile(pattern, ignore_case);
      return typeof regex === 'string' ? { ok: false, message: `pattern is not a valid regular expression: ${regex}` } : { ok: true };
    },
    async call({ pattern, path = '.', glob, ignore_case }, ctx) {
      const regex = compile(pattern, ignore_case) as RegExp;
      const filter = glob ? globToRegExp(glob) : null;
      const base = await confinePath(root, path);
      const lines: string[] = [];
      let total = 0;
      for await (const file of filesAt(base.realRoot, base.absolute)) {
        if (ctx.signal.aborted) break;
        if (filter && !filter.test(file.relative)) continue;
        if ((await stat(file.absolute)).size > MAX_FILE_BYTES) continue;
        const text = await readFile(file.absolute, 'utf8');
        if (text.includes('\0')) continue;
        text.split(/\r?\n/).forEach((line, i) => {
          if (!regex.test(line)) return;
          total++;
          if (lines.length < GREP_MAX_MATCHES) lines.push(`${file.relative}:${i + 1}: ${line.slice(0, MAX_LINE_CHARS)}`);
        });
      }
      if (total === 0) return { content: `No matches for /${pattern}/.` };
      const more = total > lines.length ? `\n(${total - lines.length} more matches not shown)` : '';
      return { content: lines.join('\n') + more };
    },
  });
}
