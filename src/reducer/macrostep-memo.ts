/**
 * Memoized macrosteps: the paths xstate's `transition()` takes through the loop machine, kept as a decision tree
 * per (state value, event type) and followed again without xstate.
 *
 * Why this is exact: the chart has one active leaf at a time, no history states, delays, children or wildcard
 * events, and every action is a named `assign`. So from a given state value and event type, the transitions xstate
 * selects, and the actions it runs in what order, depend only on what the guards answer along the way. A recorded
 * path is a sequence of guard calls (with their answers) and action calls, ending in a state value. Following it
 * means calling the same guards on the context as it evolves: while every guard answers as recorded, xstate would
 * take the same path, so running the same actions in the same order gives the same context. The first guard that
 * answers differently leaves the tree (a miss), and the caller asks xstate, records that path and adds it.
 *
 * Why it exists: xstate's `transition()` costs 5-15 µs per microstep (exit/entry sets, a snapshot clone per
 * `assign`), and a tool turn is about 17 microsteps. Following a path costs the guards and actions themselves.
 *
 * The tree only holds the chart's structure (functions and params from the machine definition, state values), never
 * run data, so one tree can serve many runs. The tree (`ChartPaths`) and the memo that follows it are separate
 * objects: a memo counts its own hits and misses over the paths it is handed, and whoever owns the paths decides how
 * long they live (`stepper.ts` makes fresh ones; the drivers share one per machine, `src/runtime/chart-paths.ts`).
 * The tree's size is bounded by the chart's paths; a node cap bounds it anyway.
 */
import type { TraceStep } from '../machine/macrostep-trace.ts';
import type { Effect } from '../data/effects.ts';
import type { MachineContext } from '../machine/machine-context.ts';
import type { LoopEvent } from '../data/events.ts';
import { NO_EFFECTS, UNCHANGED, type ScratchContext } from '../machine/machine-context.ts';
import type { LoopState } from '../data/state.ts';

type StateValue = LoopState['value'];

/** Where a recorded path ends: the state value xstate reached, or no change at all (no transition enabled). */
export interface PathEnd {
  kind: 'end';
  value: StateValue;
  done: boolean;
  unchanged: boolean;
}

type GuardStep = Extract<TraceStep, { kind: 'guard' }>;
type ActionStep = Extract<TraceStep, { kind: 'action' }>;

/**
 * A guard or action node holds its step's function and params itself (`fn`, `params`, beside the `step` that `add`
 * compares): `follow` reads each once per node, and in V8's baseline tier, where a cold turn follows its paths,
 * every property load is an inline-cache call.
 */
type PathNode =
  | { kind: 'guard'; fn: GuardStep['fn']; params: unknown; step: GuardStep; onTrue: PathNode | null; onFalse: PathNode | null }
  | { kind: 'action'; fn: ActionStep['fn']; params: unknown; step: ActionStep; next: PathNode }
  | PathEnd;

/** Far above what the chart's paths need (a few hundred nodes); only a bug could reach it. */
const DEFAULT_MAX_NODES = 20_000;

export interface MemoStats {
  hits: number;
  misses: number;
  nodes: number;
}

/**
 * The recorded paths of one machine: roots by state value and event type, each a decision tree. Holds nothing of a
 * run, so any number of memos (runs, replays) may follow and extend one.
 */
export interface ChartPaths {
  readonly maxNodes: number;
  /** Nodes in all trees. */
  nodes: number;
  /** Roots by state value (as text) and event type. */
  readonly roots: Map<string, Map<string, PathNode>>;
  /** The same per frozen state value object: the values a step hands out are the tree's own frozen ones, so most
   * steps find theirs here without building the value's text. */
  readonly byValueObject: WeakMap<object, Map<string, PathNode>>;
}

/** Empty paths. An object literal (see `createMacrostepMemo`). */
export function createChartPaths(maxNodes = DEFAULT_MAX_NODES): ChartPaths {
  const paths: ChartPaths = { maxNodes, nodes: 0, roots: new Map(), byValueObject: new WeakMap() };
  return paths;
}

export interface MacrostepMemo {
  /** This memo's hits and misses, and the size of the paths it follows (shared paths count every memo's). */
  stats(): MemoStats;
  readonly paths: ChartPaths;
  /**
   * Follows the recorded path for this state and event. Returns the context and end reached and the effects the
   * actions queued (one shared frozen array when none: a caller that hands them on copies an empty one), or null
   * when no recorded path matches the guards' answers (or a guard or action threw: xstate then gives the canonical
   * outcome).
   *
   * `context` must be a fresh object the caller owns: each action's patch is written into it in place (where
   * xstate would copy it once per action), and after a miss it is half-updated, so throw it away. Actions never
   * keep the context object itself, only values read from it, so no one else sees it change. An action's
   * `effects` land in the scratch's own slot too (`toScratchContext`); no guard or action reads it, and the caller
   * copies out only the run's fields (`toLoopContext`).
   */
  follow(value: StateValue, context: MachineContext, event: LoopEvent): { context: MachineContext; end: PathEnd; effects: Effect[] } | null;
  /** Adds a path xstate took. A path that contradicts the tree (it cannot, if the chart is deterministic) is dropped. */
  add(value: StateValue, event: LoopEvent, trace: TraceStep[], end: Omit<PathEnd, 'kind'>): void;
}

interface MemoTree extends MacrostepMemo {
  hits: number;
  misses: number;
}

/**
 * A memo following `paths` (fresh, empty ones by default). An object literal, not a class instance: a memo lives as
 * long as its run, and the shape a constructor builds dies with its last instance, taking with it at the next full
 * GC the optimized code of every function that had seen it (docs/architecture.md, "Shapes that outlive a run").
 */
export function createMacrostepMemo(paths: ChartPaths = createChartPaths()): MacrostepMemo {
  const memo: MemoTree = {
    paths,
    hits: 0,
    misses: 0,
    stats,
    follow,
    add,
  };
  return memo;
}

/** A method, not a getter: a literal with a getter took 0.5-1.5 µs to build (one per run), one without 0.05. */
function stats(this: MemoTree): MemoStats {
  return { hits: this.hits, misses: this.misses, nodes: this.paths.nodes };
}

function follow(this: MemoTree, value: StateValue, context: MachineContext, event: LoopEvent): { context: MachineContext; end: PathEnd; effects: Effect[] } | null {
  let node: PathNode | null | undefined = rootsOf(this.paths, value, false)?.get(event.type);
  const current = context as ScratchContext;
  let effects: Effect[] | null = null;
  try {
    while (node) {
      const kind = node.kind;
      if (kind === 'guard') {
        node = node.fn(current, event, node.params) ? node.onTrue : node.onFalse;
      } else if (kind === 'end') {
        this.hits += 1;
        return { context: current, end: node, effects: effects ?? NO_EFFECTS };
      } else {
        // The action's effects land in the scratch's own `effects` slot and are taken from there: reading
        // `result.effects` saw every action's result shape (a megamorphic load that missed on almost every call).
        const patch = node.fn(current, event, node.params);
        // An action that changed nothing returns the one `UNCHANGED` patch: nothing to write (`Object.assign` was the
        // largest part of this loop in a profile, and about a quarter of the patches were empty).
        if (patch !== UNCHANGED) {
          Object.assign(current, patch);
          const queued = current.effects;
          if (queued !== undefined) {
            // The first action's own array becomes the step's (fresh per action, held by no one else): pushing onto
            // an empty literal reserved room for 16 effects. An action that queued none hands out the outbox's one
            // frozen empty array (`openOutbox`), never taken.
            if (queued.length > 0) {
              if (effects === null) effects = queued;
              else for (let i = 0; i < queued.length; i++) effects.push(queued[i]);
            }
            current.effects = undefined;
          }
        }
        node = node.next;
      }
    }
  } catch {
    // Fall through to xstate, which reports the error its own way.
  }
  this.misses += 1;
  return null;
}

function rootsOf(paths: ChartPaths, value: StateValue, create: boolean): Map<string, PathNode> | undefined {
  if (typeof value === 'string') return rootsByKey(paths, value, create);
  // Only frozen values are looked up by identity: a caller's own value object could change under the cache. Only
  // frozen ones are ever put in it, and nothing unfreezes an object, so a hit needs no `isFrozen` check.
  let roots = paths.byValueObject.get(value);
  if (!roots) {
    roots = rootsByKey(paths, valueKey(value), create);
    if (roots && Object.isFrozen(value)) paths.byValueObject.set(value, roots);
  }
  return roots;
}

function rootsByKey(paths: ChartPaths, key: string, create: boolean): Map<string, PathNode> | undefined {
  let roots = paths.roots.get(key);
  if (!roots && create) paths.roots.set(key, (roots = new Map()));
  return roots;
}

function add(this: MemoTree, value: StateValue, event: LoopEvent, trace: TraceStep[], end: Omit<PathEnd, 'kind'>): void {
  const paths = this.paths;
  const roots = rootsOf(paths, value, true) as Map<string, PathNode>;
  // Frozen: every later step that reaches this end hands out the same value object. Fields listed, not spread:
  // a spread then a field gave each end node a shape of its own, so a fresh memo (one per run) made the loads
  // of every step that ends there miss their inline caches.
  const endNode: PathEnd = { kind: 'end', value: deepFrozen(end.value), done: end.done, unchanged: end.unchanged };
  const fresh = chain(trace, 0, endNode);
  if (paths.nodes + fresh.size > paths.maxNodes) return;
  const root = roots.get(event.type);
  if (!root) {
    roots.set(event.type, fresh.node);
    paths.nodes += fresh.size;
    return;
  }
  let node: PathNode = root;
  for (let i = 0; i < trace.length; i++) {
    const step = trace[i];
    if (node.kind === 'end' || node.step.fn !== step.fn || node.step.params !== step.params) return;
    if (node.kind === 'action') {
      if (step.kind !== 'action') return;
      node = node.next;
      continue;
    }
    if (step.kind !== 'guard') return;
    const branch = step.result ? node.onTrue : node.onFalse;
    if (branch) {
      node = branch;
      continue;
    }
    const rest = chain(trace, i + 1, endNode);
    if (step.result) node.onTrue = rest.node;
    else node.onFalse = rest.node;
    paths.nodes += rest.size;
    return;
  }
}

/** The path from `trace[from]` on, as a chain of nodes. */
function chain(trace: TraceStep[], from: number, end: PathEnd): { node: PathNode; size: number } {
  let node: PathNode = end;
  for (let i = trace.length - 1; i >= from; i--) {
    const step = trace[i];
    node = step.kind === 'guard'
      ? { kind: 'guard', fn: step.fn, params: step.params, step, onTrue: step.result ? node : null, onFalse: step.result ? null : node }
      : { kind: 'action', fn: step.fn, params: step.params, step, next: node };
  }
  return { node, size: trace.length - from + 1 };
}

/** A state value as text: `sampling`, `exitLadder.stopHooks` (regions of a parallel state would join with `,`). */
function valueKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([region, child]) => `${region}.${valueKey(child as StateValue)}`)
    .join(',');
}

function deepFrozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFrozen(child);
    Object.freeze(value);
  }
  return value;
}
