/**
 * `Grep`: a regular expression over the text files of the root (or of `path`), optionally filtered by a glob.
 * Answers `path:line: text` per matching line, in walk order. Read-only and concurrency-safe. Binary files (a NUL
 * byte), files over 2 MB and anything but regular files are skipped.
 *
 * Patterns run on RE2 (see `linear-regexp.ts`): linear time whatever the pattern, so `^(a+)+$` cannot freeze the
 * loop; the syntax is RE2's (as ripgrep's), without backreferences or lookaround. The walk and the reads stop when
 * the call is aborted.
 */
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { confinePath } from './confine-path.ts';
import { compileGlob } from './glob-match.ts';
import { compileLinearRegExp, tryCompile, type LinearRegExp } from './linear-regexp.ts';
import { openConfinedFile, readUpTo } from './open-confined.ts';
import { filesAt } from './walk-files.ts';

export const GREP_MAX_MATCHES = 500;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

const grepInput = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression (RE2 syntax, as ripgrep) to look for, line by line.'),
  path: z.string().min(1).optional().describe('File or directory to search, relative to the root (default: the root).'),
  glob: z.string().min(1).optional().describe('Only search files whose path (relative to the root) matches this glob.'),
  ignore_case: z.boolean().optional(),
});

/** The file's text, or null when it is not a regular file, too big, binary or gone. */
async function searchableText(realRoot: string, absolute: string, signal: AbortSignal): Promise<string | null> {
  let file;
  try {
    file = await openConfinedFile(realRoot, absolute);
  } catch {
    return null;
  }
  try {
    if (file.stats.size > MAX_FILE_BYTES) return null;
    const bytes = await readUpTo(file.handle, MAX_FILE_BYTES, signal);
    if (bytes === null || bytes.includes(0)) return null;
    return bytes.toString('utf8');
  } finally {
    await file.handle.close();
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
    validateInput({ pattern, ignore_case, glob }) {
      const regex = tryCompile(() => compileLinearRegExp(pattern, ignore_case ? 'i' : ''));
      if (typeof regex === 'string') return { ok: false, message: `pattern is not a valid regular expression: ${regex}` };
      regex.free();
      if (glob === undefined) return { ok: true };
      const filter = tryCompile(() => compileGlob(glob));
      if (typeof filter === 'string') return { ok: false, message: `glob is not usable: ${filter}` };
      filter.free();
      return { ok: true };
    },
    async call({ pattern, path = '.', glob, ignore_case }, ctx) {
      const base = await confinePath(root, path);
      const compiled: LinearRegExp[] = [];
      const regex = compileLinearRegExp(pattern, ignore_case ? 'i' : '');
      compiled.push(regex);
      const lines: string[] = [];
      let total = 0;
      try {
        const filter = glob ? compileGlob(glob) : null;
        if (filter) compiled.push(filter);
        for await (const file of filesAt(base.realRoot, base.absolute, ctx.signal)) {
          if (filter && !filter.test(file.relative)) continue;
          const text = await searchableText(base.realRoot, file.absolute, ctx.signal);
          if (text === null) continue;
          text.split(/\r?\n/).forEach((line, i) => {
            if (!regex.test(line)) return;
            total++;
            if (lines.length < GREP_MAX_MATCHES) lines.push(`${file.relative}:${i + 1}: ${line.slice(0, MAX_LINE_CHARS)}`);
          });
        }
      } finally {
        for (const re of compiled) re.free();
      }
      if (total === 0) return { content: `No matches for /${pattern}/.` };
      const more = total > lines.length ? `\n(${total - lines.length} more matches not shown)` : '';
      return { content: lines.join('\n') + more };
    },
  });
}
