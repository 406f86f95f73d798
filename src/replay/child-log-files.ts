/**
 * Where the session logs of a tree of runs (a parent and its subagents) live, and their recording. Each child run
 * is recorded as its own session log, a sibling of its parent's: `run.jsonl`'s child for tool call `toolu_1` is
 * `run.agents/toolu_1.jsonl`, and that child's own children live in `run.agents/toolu_1.agents/`. Replaying such a
 * tree is `child-logs.ts`; this module is apart from it so that a run that records (an Agent SDK session) does not
 * load the log parser and its schemas.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RunObserverFactory } from '../runtime/query-options.ts';
import type { ChildLink } from '../tools/child-runs.ts';
import type { RedactOptions } from './redact.ts';
import { recordTo } from './session-recorder.ts';

const stem = (path: string) => path.replace(/\.jsonl$/, '');

/** The folder holding the child logs of `log`. */
export function childLogDir(log: string): string {
  return `${stem(log)}.agents`;
}

/**
 * The log of the child reached from `root` through `toolUseIds` (one id per generation). The ids are file names
 * as they are: the engine makes every tool_use id `[A-Za-z0-9_-]+` (`unique-tool-use-ids.ts`).
 */
export function childLogPath(root: string, toolUseIds: readonly string[]): string {
  return toolUseIds.reduce((parent, id) => join(childLogDir(parent), `${id}.jsonl`), root);
}

/** The child logs beside `log`, by tool_use id, in file-name order (none when it has no `.agents/` folder). */
export function childLogFiles(log: string): Array<{ toolUseId: string; file: string }> {
  const dir = childLogDir(log);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => ({ toolUseId: basename(name, '.jsonl'), file: join(dir, name) }));
}

/** Every child log below `log`, depth first (children, then each child's own), in file-name order. */
export function descendantLogFiles(log: string): string[] {
  return childLogFiles(log).flatMap(({ file }) => [file, ...descendantLogFiles(file)]);
}

/** `childObservers` for `query()`: records every child run of `root`'s tree beside it. */
export function recordChildrenBeside(root: string, options: { redact?: RedactOptions; fsync?: boolean } = {}): (link: ChildLink) => RunObserverFactory[] {
  return (link) => {
    const path = childLogPath(root, link.toolUseIds);
    mkdirSync(dirname(path), { recursive: true });
    return [recordTo(path, options)];
  };
}
