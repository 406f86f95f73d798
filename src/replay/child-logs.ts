/**
 * Session logs of a tree of runs (a parent and its subagents). Each child run is recorded as its own session log,
 * a sibling of its parent's: `run.jsonl`'s child for tool call `toolu_1` is `run.agents/toolu_1.jsonl`, and that
 * child's own children live in `run.agents/toolu_1.agents/`. The parent's log needs no change: the child's answer
 * is the parent's `tool_result` event for that id, so the parent replays alone, and each child replays alone.
 *
 * `replayTree` replays a parent and every child below it with zero model calls; a divergence names its path
 * (parent event, child run, child event).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RunObserverFactory } from '../effects/query-options.ts';
import type { ChildLink } from '../effects/child-runs.ts';
import { ReplayDivergenceError } from './errors.ts';
import type { RedactOptions } from './redact.ts';
import { replay, type ReplayOptions, type ReplayResult } from './replay.ts';
import { recordTo } from './session-recorder.ts';
import { loadSessionLog } from './parse-session-log.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

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

/** A child run's divergence, with the path that leads to it. */
export class TreeReplayDivergenceError extends TurnloopError {
  constructor(
    /** From the root: for each generation, the parent's event that answered the call and the child's tool_use id. */
    readonly path: Array<{ parentEvent: number; toolUseId: string }>,
    /** The diverging child's log file. */
    readonly log: string,
    readonly divergence: ReplayDivergenceError,
  ) {
    const where = path.map((p) => `parent event ${p.parentEvent} → child run ${p.toolUseId}`).join(' → ');
    super('TREE_REPLAY_DIVERGENCE', `replay diverged in a child run: ${where} → child event ${divergence.index} (${divergence.diff}) [${log}]`);
    this.name = 'TreeReplayDivergenceError';
  }
}

export interface TreeReplayResult extends ReplayResult {
  log: string;
  /** One per child log beside this one, by tool_use id. */
  children: Map<string, TreeReplayResult>;
}

/** For each tool call `log` answered: the index of its first `tool_result` event. */
export function answeringEvents(log: string): Map<string, number> {
  const answered = new Map<string, number>();
  for (const { event, index } of loadSessionLog(log).events) {
    if (event.type === 'tool_result' && !answered.has(event.toolUseId)) answered.set(event.toolUseId, index);
  }
  return answered;
}

/**
 * Replays `log` and every child log below it (hashes verified, no model calls).
 *
 * @example
 * const tree = replayTree('run.jsonl');
 * tree.children.get('toolu_1')?.terminal // the subagent's ending
 */
export function replayTree(log: string, options: ReplayOptions = {}, path: Array<{ parentEvent: number; toolUseId: string }> = []): TreeReplayResult {
  let result: ReplayResult;
  try {
    result = replay(log, options);
  } catch (error) {
    if (error instanceof ReplayDivergenceError && path.length > 0) throw new TreeReplayDivergenceError(path, log, error);
    throw error;
  }
  return { ...result, log, children: replayChildren(log, options, path) };
}

/** Replays every child log below `log` (not `log` itself: a caller that already replayed it, from bytes it checked). */
export function replayChildren(log: string, options: ReplayOptions = {}, path: Array<{ parentEvent: number; toolUseId: string }> = []): Map<string, TreeReplayResult> {
  const children = new Map<string, TreeReplayResult>();
  const files = childLogFiles(log);
  // The parent's log is read once for all its children (not once per child).
  const answered = files.length > 0 ? answeringEvents(log) : new Map<string, number>();
  for (const { toolUseId, file } of files) {
    const step = { parentEvent: answered.get(toolUseId) ?? -1, toolUseId };
    children.set(toolUseId, replayTree(file, options, [...path, step]));
  }
  return children;
}
