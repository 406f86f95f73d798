/**
 * What-if over a tree of runs (a parent and its subagents, recorded as sibling logs, `child-logs.ts`): the overrides
 * apply to one run of the tree, the target (the root, or a child named by its path of tool_use ids), and the report
 * says what that means for the runs below and above it. No model is called anywhere.
 *
 * Invariants:
 * - The target is re-folded under the overrides (`whatIf`); the runs on the way to it are replayed, hashes verified.
 * - A child of the target whose call starts at a step before the target's first divergence would be started as it
 *   was: it is re-driven from its own log (`replayTree`, zero model calls) and gives the same answer. A child whose
 *   call starts at or after that step is "not reached": the what-if run would need new answers before it.
 * - A child's config is its own (children do not inherit their parent's config), so the overrides do not reach the
 *   target's children; target a child to change it.
 * - For a child target, a divergence means its answer to the parent may change: the report names the parent's
 *   event that took the recorded answer. No divergence: the parent is unaffected.
 */
import { existsSync } from 'node:fs';
import { answeringEvents, childLogFiles, childLogPath, replayTree, type TreeReplayResult } from './child-logs.ts';
import { ChildRunNotFoundError } from './errors.ts';
import { loadSessionLog } from './parse-session-log.ts';
import { foldSessionLog, replay, type ReplayOptions } from './replay.ts';
import { whatIf, type WhatIfOverrides, type WhatIfReport } from './what-if.ts';

/** How one child of the target fares under the what-if. */
export interface ChildWhatIf {
  toolUseId: string;
  /** The parent's event whose step started the call (its run_tools / enqueue_tool effect), and the one it answered. */
  startedAt: number;
  answeredAt: number;
  /** `replayed`: started as recorded and re-driven from its own log; `not reached`: the what-if diverges first. */
  status: 'replayed' | 'not reached';
  /** The child's terminal when replayed. */
  terminal: string | null;
  /** Its own children (when replayed). */
  children: ChildWhatIf[];
}

export interface TreeWhatIfReport {
  /** The run the overrides applied to: its tool_use ids from the root ([] = the root). */
  target: string[];
  log: string;
  report: WhatIfReport;
  children: ChildWhatIf[];
  /** For a child target that diverges: the parent's event that took its recorded answer, which may change. */
  parentAffected: { toolUseId: string; parentEvent: number } | null;
}

/** Where each child of `log` was started and answered: the tool_use ids of its child logs, in file-name order. */
function childCalls(log: string): Array<{ toolUseId: string; file: string; startedAt: number; answeredAt: number }> {
  const files = childLogFiles(log);
  if (files.length === 0) return [];
  const started = new Map<string, number>();
  for (const step of foldSessionLog(loadSessionLog(log))) {
    for (const effect of step.effects) {
      const ids = effect.type === 'enqueue_tool' ? [effect.toolUse.id] : effect.type === 'run_tools' ? effect.batches.flatMap((b) => b.toolUses.map((t) => t.id)) : [];
      for (const id of ids) if (!started.has(id)) started.set(id, step.index);
    }
  }
  const answered = answeringEvents(log);
  return files.map(({ toolUseId, file }) => ({ toolUseId, file, startedAt: started.get(toolUseId) ?? -1, answeredAt: answered.get(toolUseId) ?? -1 }));
}

/** The log of the run `toolUseIds` below `root` (throws `ChildRunNotFoundError`, naming the runs there are). */
export function childRunLog(root: string, toolUseIds: readonly string[]): string {
  const log = childLogPath(root, toolUseIds);
  if (toolUseIds.length === 0 || existsSync(log)) return log;
  const parent = childLogPath(root, toolUseIds.slice(0, -1));
  const known = childLogFiles(parent).map((child) => child.toolUseId);
  throw new ChildRunNotFoundError([...toolUseIds], parent, known);
}

type TreePath = Array<{ parentEvent: number; toolUseId: string }>;

/** The children of `log` (reached through `path`) when the run diverges at `divergedAt` (null: never). */
function childrenUnder(log: string, divergedAt: number | null, options: ReplayOptions, path: TreePath): ChildWhatIf[] {
  return childCalls(log).map(({ toolUseId, file, startedAt, answeredAt }) => {
    if (divergedAt !== null && (startedAt < 0 || divergedAt <= startedAt)) {
      return { toolUseId, startedAt, answeredAt, status: 'not reached', terminal: null, children: [] };
    }
    // One replay per child log, the whole subtree below it included; a divergence is named by its path.
    return replayedChild(file, { toolUseId, startedAt, answeredAt }, replayTree(file, options, [...path, { parentEvent: answeredAt, toolUseId }]));
  });
}

/** A child started as recorded, from its tree replay (its own children described from the same replay). */
function replayedChild(file: string, call: Pick<ChildWhatIf, 'toolUseId' | 'startedAt' | 'answeredAt'>, replayed: TreeReplayResult): ChildWhatIf {
  const children = childCalls(file).flatMap((grandchild) => {
    const result = replayed.children.get(grandchild.toolUseId);
    return result ? [replayedChild(grandchild.file, grandchild, result)] : [];
  });
  return { ...call, status: 'replayed', terminal: replayed.terminal?.reason ?? null, children };
}

/**
 * @example
 * whatIfTree('run.jsonl', { config: { limits: { maxModelCalls: 1 } } }).children   // which subagents still run
 * whatIfTree('run.jsonl', { params: { maxTurns: 1 } }, { target: ['toolu_1'] }).parentAffected
 */
export function whatIfTree(root: string, overrides: WhatIfOverrides, options: { target?: readonly string[]; allowVersionSkew?: boolean } = {}): TreeWhatIfReport {
  const target = [...(options.target ?? [])];
  const replayOptions: ReplayOptions = { allowVersionSkew: options.allowVersionSkew };
  // The runs on the way to the target are replayed as recorded (hashes verified).
  for (let depth = 0; depth < target.length; depth++) replay(childRunLog(root, target.slice(0, depth)), replayOptions);
  const log = childRunLog(root, target);
  const report = whatIf(log, overrides, replayOptions);
  const divergedAt = report.divergence?.index ?? null;
  // For each generation down to the target: the parent's event that answered the call.
  const path = target.map((toolUseId, depth) => ({ parentEvent: answeringEvents(childLogPath(root, target.slice(0, depth))).get(toolUseId) ?? -1, toolUseId }));
  const last = path.at(-1);
  const parentAffected = last && divergedAt !== null ? { toolUseId: last.toolUseId, parentEvent: last.parentEvent } : null;
  return { target, log, report, children: childrenUnder(log, divergedAt, replayOptions, path), parentAffected };
}
