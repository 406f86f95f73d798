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
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { childLogDir, childLogPath, replayTree } from './child-logs.ts';
import { ChildRunNotFoundError } from './errors.ts';
import { loadSessionLog } from './parse-session-log.ts';
import { foldSessionLog, replay } from './replay.ts';
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
  const dir = childLogDir(log);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  const wanted = new Map(files.map((file) => [basename(file, '.jsonl'), { file: join(dir, file), startedAt: -1, answeredAt: -1 }]));
  for (const step of foldSessionLog(loadSessionLog(log))) {
    for (const effect of step.effects) {
      const ids = effect.type === 'enqueue_tool' ? [effect.toolUse.id] : effect.type === 'run_tools' ? effect.batches.flatMap((b) => b.toolUses.map((t) => t.id)) : [];
      for (const id of ids) {
        const call = wanted.get(id);
        if (call && call.startedAt < 0) call.startedAt = step.index;
      }
    }
    if (step.event?.type === 'tool_result') {
      const call = wanted.get(step.event.toolUseId);
      if (call && call.answeredAt < 0) call.answeredAt = step.index;
    }
  }
  return [...wanted].map(([toolUseId, call]) => ({ toolUseId, ...call }));
}

/** The log of the run `toolUseIds` below `root` (throws `ChildRunNotFoundError`, naming the runs there are). */
export function childRunLog(root: string, toolUseIds: readonly string[]): string {
  const log = childLogPath(root, toolUseIds);
  if (toolUseIds.length === 0 || existsSync(log)) return log;
  const parent = childLogPath(root, toolUseIds.slice(0, -1));
  const dir = childLogDir(parent);
  const known = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => basename(f, '.jsonl')).sort() : [];
  throw new ChildRunNotFoundError([...toolUseIds], parent, known);
}

/** The children of `log` when the run diverges at `divergedAt` (null: never). */
function childrenUnder(log: string, divergedAt: number | null): ChildWhatIf[] {
  return childCalls(log).map(({ toolUseId, file, startedAt, answeredAt }) => {
    if (divergedAt !== null && (startedAt < 0 || divergedAt <= startedAt)) {
      return { toolUseId, startedAt, answeredAt, status: 'not reached', terminal: null, children: [] };
    }
    const replayed = replayTree(file);
    return { toolUseId, startedAt, answeredAt, status: 'replayed', terminal: replayed.terminal?.reason ?? null, children: childrenUnder(file, null) };
  });
}

/**
 * @example
 * whatIfTree('run.jsonl', { config: { limits: { maxModelCalls: 1 } } }).children   // which subagents still run
 * whatIfTree('run.jsonl', { params: { maxTurns: 1 } }, { target: ['toolu_1'] }).parentAffected
 */
export function whatIfTree(root: string, overrides: WhatIfOverrides, options: { target?: readonly string[]; allowVersionSkew?: boolean } = {}): TreeWhatIfReport {
  const target = [...(options.target ?? [])];
  // The runs on the way to the target are replayed as recorded (hashes verified).
  for (let depth = 0; depth < target.length; depth++) replay(childRunLog(root, target.slice(0, depth)), { allowVersionSkew: options.allowVersionSkew });
  const log = childRunLog(root, target);
  const report = whatIf(log, overrides, { allowVersionSkew: options.allowVersionSkew });
  const divergedAt = report.divergence?.index ?? null;
  let parentAffected: TreeWhatIfReport['parentAffected'] = null;
  if (target.length > 0 && divergedAt !== null) {
    const toolUseId = target.at(-1)!;
    const call = childCalls(childLogPath(root, target.slice(0, -1))).find((c) => c.toolUseId === toolUseId);
    parentAffected = { toolUseId, parentEvent: call?.answeredAt ?? -1 };
  }
  return { target, log, report, children: childrenUnder(log, divergedAt), parentAffected };
}
