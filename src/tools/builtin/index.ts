/**
 * Built-in file tools for demos and `turnloop run`, all confined to one root directory (see `confine-path.ts`).
 */
import type { Tool } from '../define-tool.ts';
import { createEditTool } from './edit.ts';
import { createGlobTool } from './glob.ts';
import { createGrepTool } from './grep.ts';
import { createReadTool } from './read.ts';

export interface FileToolsOptions {
  /** Directory the tools may see; nothing outside it (symlinks included) is read or written. */
  root: string;
}

/**
 * @example
 * const registry = createToolRegistry(createFileTools({ root: process.cwd() }));
 */
export function createFileTools(options: FileToolsOptions): Tool[] {
  return [createReadTool(options.root), createEditTool(options.root), createGlobTool(options.root), createGrepTool(options.root)];
}

export { createEditTool, createGlobTool, createGrepTool, createReadTool };
export { createBashTool, BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_OUTPUT_CHARS, BASH_MAX_TIMEOUT_MS, type BashTool, type BashToolOptions } from './bash.ts';
export { createWriteTool } from './write.ts';
export { compileGlob, matchGlob } from './glob-match.ts';
export { NotRegularFileError } from './open-confined.ts';
export { PathNotFoundError, PathOutsideRootError, confinePath } from './confine-path.ts';
