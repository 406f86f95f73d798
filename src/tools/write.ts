/**
 * `Write`: creates or overwrites a file of the root with `content` (Claude Code's Write tool, same input shape).
 * Missing parent directories are created. Invariant: nothing is written outside the root: the nearest existing
 * ancestor is confined (symlinks resolved), each created directory is confined again, and the file is opened with
 * O_NOFOLLOW, so a symlink at the path cannot redirect the write. Not read-only, not concurrency-safe.
 */
import { constants } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../effects/tools/define-tool.ts';
import { confinePath, isInside, PathOutsideRootError, realRootOf } from './confine-path.ts';

const writeInput = z.strictObject({
  file_path: z.string().min(1).describe('File to write, relative to the workspace root (or absolute inside it).'),
  content: z.string().describe('The whole new content of the file.'),
});

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/** The confined directory that will hold `requested`, created if missing. */
async function confinedParent(root: string, requested: string): Promise<string> {
  const realRoot = await realRootOf(root);
  const candidate = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(realRoot, requested);
  if (!isInside(realRoot, candidate) && !isInside(path.resolve(root), candidate)) throw new PathOutsideRootError(requested);
  const missing: string[] = [];
  let dir = path.dirname(candidate);
  while (!(await exists(dir))) {
    missing.unshift(path.basename(dir));
    dir = path.dirname(dir);
  }
  let current = (await confinePath(root, dir)).absolute;
  for (const part of missing) {
    await mkdir(path.join(current, part)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    current = (await confinePath(root, path.join(current, part))).absolute;
  }
  return current;
}

export function createWriteTool(root: string): Tool<z.output<typeof writeInput>> {
  return defineTool({
    name: 'Write',
    description: 'Writes a file of the workspace (creating it and its directories, or replacing its whole content).',
    inputSchema: writeInput,
    async call({ file_path, content }, ctx) {
      const parent = await confinedParent(root, file_path);
      const target = path.join(parent, path.basename(file_path));
      const realRoot = await realRootOf(root);
      const relative = path.relative(realRoot, target).split(path.sep).join('/');
      const existed = await exists(target);
      ctx.signal.throwIfAborted();
      let handle;
      try {
        handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new PathOutsideRootError(file_path);
        throw error;
      }
      try {
        if (!(await handle.stat()).isFile()) return { content: `Error: ${relative} is not a regular file.`, isError: true };
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close();
      }
      return { content: existed ? `The file ${relative} has been updated.` : `File created successfully at: ${relative}` };
    },
  });
}
