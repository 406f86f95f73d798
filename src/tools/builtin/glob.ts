/**
 * `Glob`: the files of the root (or of `path` inside it) whose relative path matches a glob (see
 * `glob-match.ts`), sorted, one per line, relative to the root. Read-only and concurrency-safe; the walk stops
 * when the call is aborted.
 */
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { confinePath } from './confine-path.ts';
import { compileGlob } from './glob-match.ts';
import { tryCompile } from './linear-regexp.ts';
import { filesAt } from './walk-files.ts';

export const GLOB_MAX_RESULTS = 500;

const globInput = z.strictObject({
  pattern: z.string().min(1).describe('Glob such as "**/*.ts" or "src/{a,b}/*.md"; `*`, `**`, `?`, `[a-z]`, `{a,b}` supported.'),
  path: z.string().min(1).optional().describe('Directory to search in, relative to the root (default: the root).'),
});

export function createGlobTool(root: string): Tool<z.output<typeof globInput>> {
  return defineTool({
    name: 'Glob',
    description: 'Lists workspace files whose path (relative to the search directory) matches a glob pattern.',
    inputSchema: globInput,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: 'cancel',
    validateInput({ pattern }) {
      const matcher = tryCompile(() => compileGlob(pattern));
      if (typeof matcher === 'string') return { ok: false, message: `pattern is not a usable glob: ${matcher}` };
      matcher.free();
      return { ok: true };
    },
    async call({ pattern, path = '.' }, ctx) {
      const base = await confinePath(root, path);
      const matcher = compileGlob(pattern);
      const prefix = base.relative === '' ? '' : `${base.relative}/`;
      const matches: string[] = [];
      try {
        for await (const file of filesAt(base.realRoot, base.absolute, ctx.signal)) {
          const fromBase = file.relative.startsWith(prefix) ? file.relative.slice(prefix.length) : file.relative;
          if (matcher.test(fromBase)) matches.push(file.relative);
        }
      } finally {
        matcher.free();
      }
      if (matches.length === 0) return { content: `No files match ${pattern}.` };
      const shown = matches.slice(0, GLOB_MAX_RESULTS);
      const more = matches.length > shown.length ? `\n(${matches.length - shown.length} more not shown)` : '';
      return { content: shown.join('\n') + more };
    },
  });
}
