/**
 * `Write`: creates or overwrites a file of the root with `content` (Claude Code's Write tool, same input shape).
 * Missing parent directories are created. Invariant: nothing is written outside the root: the nearest existing
 * ancestor is confined (symlinks resolved), each created directory is confined again, and the file is opened with
 * O_NOFOLLOW, so a symlink at the path cannot redirect the write. A symlink at the path, wherever it points, is
 * refused as Claude Code's Write refuses one (claude 2.1.334, probed): an error result that names the link's target
 * to write instead, or says that the target is outside the root. Only regular files are written: anything else at
 * the path (a FIFO, a socket, a device, a directory) is an error result, and the open never blocks (O_NONBLOCK, as
 * Read's): a FIFO with no reader would otherwise hold a thread-pool thread and the run forever. Nothing is
 * truncated before what was opened is known to be a regular file. Not read-only, not concurrency-safe.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { confinePath, isInside, PathOutsideRootError, realRootOf } from './confine-path.ts';
import { fileKind } from './open-confined.ts';

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

function notRegular(relative: string, kind: string) {
  return { content: `Error: ${relative} is ${kind}, not a regular file; only regular files can be written.`, isError: true };
}

/** A symlink at the path: the original's refusal, with where the link points (resolved lexically, never followed). */
async function symlinkRefusal(link: string, relative: string, realRoot: string) {
  const target = path.resolve(path.dirname(link), await readlink(link).catch(() => '?'));
  const where = isInside(realRoot, target)
    ? `Write to the link's target path instead: ${path.relative(realRoot, target).split(path.sep).join('/') || '.'}.`
    : `Its target, ${target}, is outside the allowed directory.`;
  return { content: `Refusing to write ${relative}: it is a symbolic link. ${where}`, isError: true };
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
      const there = await lstat(target).catch(() => null);
      if (there?.isSymbolicLink()) return symlinkRefusal(target, relative, realRoot);
      if (there && !there.isFile()) return notRegular(relative, fileKind(there));
      ctx.signal.throwIfAborted();
      let handle;
      try {
        handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') throw new PathOutsideRootError(file_path);
        // ENXIO: a FIFO with no reader (or a socket) appeared after the check.
        if (code === 'ENXIO') return notRegular(relative, 'a FIFO or socket');
        if (code === 'EISDIR') return notRegular(relative, 'a directory');
        throw error;
      }
      try {
        const opened = await handle.stat();
        if (!opened.isFile()) return notRegular(relative, fileKind(opened));
        await handle.truncate(0);
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close();
      }
      return { content: there ? `The file ${relative} has been updated.` : `File created successfully at: ${relative}` };
    },
  });
}
