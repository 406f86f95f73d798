/**
 * `Edit`: replaces one exact occurrence of `old_string` with `new_string` in a file of the root. Invariant: the
 * file changes only when `old_string` occurs exactly once; not found, not unique or a no-op edit is an error
 * result and the file is left untouched. Not read-only, not concurrency-safe.
 *
 * The file is opened once (see `open-confined.ts`) and read and written through that handle; right before the
 * write, the handle is checked again to still be the file at the confined real path, so a symlink swapped in
 * meanwhile cannot redirect the write out of the root. A file that is not valid UTF-8 is refused: decoding it
 * with replacement characters and writing it back would corrupt the bytes the edit did not touch.
 */
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { openConfinedFile, readUpTo, verifyStillConfined } from './open-confined.ts';
import { decodeUtf8 } from './utf8.ts';

export const EDIT_MAX_BYTES = 10 * 1024 * 1024;

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
    async call({ file_path, old_string, new_string }, ctx) {
      const file = await openConfinedFile(root, file_path, 'write');
      const { relative } = file.path;
      try {
        const bytes = await readUpTo(file.handle, EDIT_MAX_BYTES, ctx.signal);
        if (bytes === null) return { content: `Error: ${relative} is larger than ${EDIT_MAX_BYTES} bytes; Edit does not change files that big.`, isError: true };
        const decoded = decodeUtf8(bytes);
        if ('badByteOffset' in decoded) {
          return { content: `Error: ${relative} is not valid UTF-8 (byte ${decoded.badByteOffset}); Edit only changes text files.`, isError: true };
        }
        const text = decoded.text;
        const found = countOccurrences(text, old_string);
        if (found === 0) return { content: `Error: old_string was not found in ${relative}.`, isError: true };
        if (found > 1) {
          return {
            content: `Error: old_string occurs more than once in ${relative}; add surrounding lines to make it unique.`,
            isError: true,
          };
        }
        const at = text.indexOf(old_string);
        const updated = Buffer.from(text.slice(0, at) + new_string + text.slice(at + old_string.length), 'utf8');
        ctx.signal.throwIfAborted();
        await verifyStillConfined(file, file_path);
        // Through the handle (not a temporary file renamed over the path), so the inode just checked is the one written.
        await file.handle.write(updated, 0, updated.length, 0);
        await file.handle.truncate(updated.length);
        const line = text.slice(0, at).split('\n').length;
        return { content: `Edited ${relative} (replacement at line ${line}).` };
      } finally {
        await file.handle.close();
      }
    },
  });
}
