/**
 * The viewer's tree of runs: the session and the subagent runs it started, each folded by its own
 * `SessionModel`, and the timeline's rows. A child run is a group of rows placed right after the parent's step
 * that asked for its tool call (several children of one step in the order their calls were asked); a group shows
 * one header row (agent, step count, terminal) and, when expanded, the child's own steps and groups, one level
 * deeper. A child whose call the parent's log never asks for goes after the parent's last step.
 * Pure apart from the models' caches; no DOM.
 */
import type { EmbeddedRun } from '../html.ts';
import type { RunVerdict } from '../session.ts';
import type { Chart } from '../graph.ts';
import { viewMessage, type ViewMessage } from '../frames.ts';
import { SessionModel, type StepEntry } from './session-model.ts';
import { TurnloopError } from '../../errors/turnloop-error.ts';

export interface RunNode {
  /** The tool_use ids from the root to this run ([] for the root). */
  path: string[];
  /** `path` joined with `/`: the run's name in addresses and sets ('' for the root). */
  key: string;
  /** The agent's name; null for the root (and for a child whose log does not say). */
  agent: string | null;
  /** `run`: a later loop run of the same thread (a transcript's next prompt), not a subagent. */
  kind: 'subagent' | 'run';
  /** What the timeline calls the run. */
  label: string;
  /** How the engine's run compares with the recorded one (Claude Code transcripts only). */
  check: RunVerdict | null;
  /** 0 for the root, 1 for its children... */
  depth: number;
  model: SessionModel;
  parent: RunNode | null;
  children: RunNode[];
}

export type TimelineRow = { kind: 'step'; run: RunNode; step: number } | { kind: 'group'; run: RunNode };

/** Which steps the timeline keeps (a search or filter); null keeps all. */
export type StepFilter = ((entry: StepEntry, run: RunNode) => boolean) | null;

export interface GroupSummary {
  agent: string;
  kind: 'subagent' | 'run';
  /** The engine and the recording disagree on this run (transcripts only). */
  differs: boolean;
  toolUseId: string;
  /** Steps of the child run, its initial state included. */
  steps: number;
  /** The child's Terminal reason, or null when its log ends before it did. */
  terminal: string | null;
}

/** The key of a step row, for finding it among the rows. */
export const stepKey = (run: RunNode, step: number) => `${run.key}#${step}`;
/** The key of a group's header row. */
export const groupKey = (run: RunNode) => `${run.key}>`;

export class RunTree {
  readonly root: RunNode;
  /** Every run, the root first, depth first. */
  readonly runs: RunNode[] = [];
  private readonly byKey = new Map<string, RunNode>();

  /** The root is folded from `session`'s config and params only: its events come through `addSteps`, as a live feed's. */
  constructor(
    readonly chart: Chart,
    session: EmbeddedRun,
  ) {
    this.root = this.node(session, [], { agent: null }, null, false);
  }

  private node(run: EmbeddedRun, path: string[], named: { agent: string | null; kind?: 'subagent' | 'run'; label?: string }, parent: RunNode | null, withEvents: boolean): RunNode {
    const params = run.sharedHistory ? { ...run.params, messages: [...this.sharedMessages(run.sharedHistory), ...run.params.messages] } : run.params;
    const model = new SessionModel(this.chart, { config: run.config, params, ...(withEvents ? { events: run.events } : {}) });
    const kind = named.kind ?? 'subagent';
    const label = named.label ?? (path.length === 0 ? 'main' : (named.agent ?? '(agent)'));
    const node: RunNode = { path, key: path.join('/'), agent: named.agent, kind, label, check: run.check ?? null, depth: path.length, model, parent, children: [] };
    this.runs.push(node);
    this.byKey.set(node.key, node);
    for (const child of run.children ?? []) node.children.push(this.node(child, [...path, child.toolUseId], child, node, true));
    return node;
  }

  /** The leading messages a run shares with a run embedded before it (`EmbeddedRun.sharedHistory`). */
  private sharedMessages(shared: { from: string; count: number }) {
    const from = this.byKey.get(shared.from);
    if (!from) throw new TurnloopError('VIEWER_INPUT', `the page's data names a run '${shared.from}' it does not hold`);
    return from.model.params.messages.slice(0, shared.count);
  }

  get hasChildren(): boolean {
    return this.root.children.length > 0;
  }

  /** The run reached through `path` (tool_use ids from the root), or null. */
  find(path: readonly string[]): RunNode | null {
    return this.byKey.get(path.join('/')) ?? null;
  }

  /** The parent's step a child's group sits under: the step that asked for its tool call. */
  anchorOf(child: RunNode): number {
    const parent = child.parent!.model;
    return parent.toolCalls.get(child.path.at(-1)!) ?? parent.length - 1;
  }

  summary(child: RunNode): GroupSummary {
    return { agent: child.label, kind: child.kind, differs: child.check !== null && !child.check.ok, toolUseId: child.path.at(-1)!, steps: child.model.length, terminal: child.model.terminal };
  }

  /** The timeline's rows: the root's steps with each child's group under its step, expanded ones opened. */
  rows(expanded: ReadonlySet<string>, keep: StepFilter = null): TimelineRow[] {
    const out: TimelineRow[] = [];
    const walk = (run: RunNode): void => {
      const byStep = new Map<number, RunNode[]>();
      const asked = new Map([...run.model.toolCalls.keys()].map((id, i) => [id, i]));
      const order = (c: RunNode) => asked.get(c.path.at(-1)!) ?? asked.size;
      for (const child of [...run.children].sort((a, b) => this.anchorOf(a) - this.anchorOf(b) || order(a) - order(b))) {
        const at = this.anchorOf(child);
        byStep.set(at, [...(byStep.get(at) ?? []), child]);
      }
      const entries = run.model.entries;
      for (let step = 0; step < entries.length; step++) {
        if (!keep || keep(entries[step]!, run)) out.push({ kind: 'step', run, step });
        for (const child of byStep.get(step) ?? []) {
          out.push({ kind: 'group', run: child });
          if (expanded.has(child.key)) walk(child);
        }
      }
    };
    walk(this.root);
    return out;
  }
}

/** The history a run started from (the child's task for a subagent), as the page lists it. */
export function startingHistory(run: RunNode): ViewMessage[] {
  return run.model.params.messages.map((m) => viewMessage(m));
}
