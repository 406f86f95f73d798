/**
 * `Edit`: replaces one exact occurrence of `old_string` with `new_string` in a file of the root. Invariant: the
 * file changes only when `old_string` occurs exactly once; not found, not unique or a no-op edit is an error
 * result and the file is left untouched. Not read-only, not concurrency-safe.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type Tool } from '../effects/tools/define-tool.ts';
import { confinePath } from './confine-path.ts';

const editInput = z.strictObject({
  file_path: z.string().min(1).describe('File to change, relative to the workspace root (or absolute inside it).'),
  old_string: z.string().min(1).describe('Exact text to replace; must occur exactly once in the file.'),
  new_string: z.string().describe('Replacement text.'),
});

/** How often `needle` occurs in `haystack` (non-overlapping), counting at most to `stopAt`. */
function countOccurrences(haystack: string, needle: string, stopAt = 2): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1 && count < stopAt; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

export function createEditTool(root: string): Tool<z.output<typeof editInput>> {
  return defineTool({
    name: 'Edit',
    description: 'Replaces one exact, unique occurrence of old_string with new_string in a workspace file.',
    inputSchema: editInput,
    validateInput: ({ old_string, new_string }) =>
      old_string === new_string ? { ok: false, message: 'old_string and new_string are the same; nothing to change.' } : { ok: true },
    async call({ file_path, old_string, new_string }) {
      const file = await confinePath(root, file_path);
      const text = await readFile(file.absolute, 'utf8');
      const found = countOccurrences(text, old_string);
      if (found === 0) return { content: `Error: old_string was not found in ${file.relative}.`, isError: true };
      if (found > 1) {
        return {
          content: `Error: old_string occurs more than once in ${file.relative}; add surrounding lines to make it unique.`,
          isError: true,
        };
      }
      const at = text.indexOf(old_string);
      await writeFile(file.absolute, text.slice(0, at) + new_string + text.slice(at + old_string.length), 'utf8');
      const line = text.slice(0, at).split('\n').length;
      return { content: `Edited ${file.relative} (replacement at line ${line}).` };
    },
  });
}
