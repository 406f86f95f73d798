/**
 * Keeps the file tools inside their root. Invariant: a path is accepted only if BOTH its lexical form and its
 * real path (symlinks resolved with `fs.realpath`) lie inside the real path of the root; anything else throws
 * `PathOutsideRootError`. Relative paths are taken from the root; absolute paths must already lie inside it.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { TurnloopError } from '../../errors/turnloop-error.ts';

export class PathOutsideRootError extends TurnloopError {
  constructor(readonly requested: string) {
    super('PATH_OUTSIDE_ROOT', `Access denied: "${requested}" is outside the allowed directory.`);
    this.name = 'PathOutsideRootError';
  }
}

export class PathNotFoundError extends TurnloopError {
  constructor(readonly requested: string) {
    super('PATH_NOT_FOUND', `No such file or directory: "${requested}".`);
    this.name = 'PathNotFoundError';
  }
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export interface ConfinedPath {
  /** Real absolute path. */
  absolute: string;
  /** Path relative to the real root, with `/` separators ('' for the root itself). */
  relative: string;
  realRoot: string;
}

export async function realRootOf(root: string): Promise<string> {
  return realpath(path.resolve(root));
}

/** Resolves `requested` inside `root`, or throws. The path must exist. */
export async function confinePath(root: string, requested: string): Promise<ConfinedPath> {
  const realRoot = await realRootOf(root);
  const candidate = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(realRoot, requested);
  // The lexical check rejects `..` and foreign absolute paths before touching the disk.
  if (!isInside(realRoot, candidate) && !isInside(path.resolve(root), candidate)) throw new PathOutsideRootError(requested);
  let absolute: string;
  try {
    absolute = await realpath(candidate);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new PathNotFoundError(requested);
    throw error;
  }
  if (!isInside(realRoot, absolute)) throw new PathOutsideRootError(requested);
  return { absolute, relative: toPosix(path.relative(realRoot, absolute)), realRoot };
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
