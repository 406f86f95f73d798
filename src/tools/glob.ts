/**
 * `Glob`: the files of the root (or of `path` inside it) whose relative path matches a glob (see
 * `glob-match.ts`), sorted, one per line, relative to the root. Read-only and concurrency-safe.
 */
import { z } from 'zod';
import { defineTool, type Tool } from '../effects/tools/define-tool.ts';
import { confinePath } from './confine-path.ts';
import { globToRegExp } from './glob-match.ts';
import { filesAt } from './walk-files.ts';

export const GLOB_MAX_RESULTS = 500;

const globInput = z.strictObject({
  pattern: z.string().min(1).describe('Glob such as "**/*.ts" or "src/{a,b}/*.md"; `*`, `**`, `?`, `{a,b}` supported.'),
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
    async call({ pattern, path = '.' }, ctx) {
      const base = await confinePath(root, path);
      const matcher = globToRegExp(pattern);
      const prefix = base.relative === '' ? '' : `${base.relative}/`;
      const matches: string[] = [];
      for await (const file of filesAt(base.realRoot, base.absolute)) {
        if (ctx.signal.aborted) break;
        const fromBase = file.relative.startsWith(prefix) ? file.relative.slice(prefix.length) : file.relative;
        if (matcher.test(fromBase)) matches.push(file.relative);
      }
      if (matches.length === 0) return { content: `No files match ${pattern}.` };
      const shown = matches.slice(0, GLOB_MAX_RESULTS);
      const more = matches.length > shown.length ? `\n(${matches.length - shown.length} more not shown)` : '';
      return { content: shown.join('\n') + more };
    },
  });
}
