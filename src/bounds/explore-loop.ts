/**
 * `exploreLoop(config, params, options)`: breadth-first over every environment the abstract alphabet
 * (`abstract-answers.ts`) can produce, folding each answer through `step()`, and checking invariants at every
 * state. Small configs are explored completely; larger ones up to `maxStates` / `maxDepth`, and the result says
 * it is partial.
 *
 * Invariants:
 * - States are merged by a canonical projection (`canonical-state.ts`): everything a guard reads, with token
 *   counts reduced to the threshold they fall under, plus the path counters the invariants read. Two merged
 *   states answer every future event alike, so the search is exact over the alphabet.
 * - Deterministic: the same config, params and options give the same result, order included.
 * - Each violation carries the path of answers that reaches it (`path-scenario.ts` turns it into a scenario).
 */
import type { LoopConfig } from '../config/config.ts';
import type { Effect } from '../data/effects.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../data/outcomes.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { answerEvents, answerLabels, type AnswerLabel } from './abstract-answers.ts';
import { canonicalKey, type PathCounters } from './canonical-state.ts';
import { computeBounds, type BoundsOptions, type LoopBounds } from './compute-bounds.ts';
import { unpairedToolUses } from './pairing.ts';
import { engineStepper, type Stepper } from './stepper.ts';
import { NOTHING_PENDING, waitAfter, type WaitState } from './waiting.ts';

export type InvariantName =
  | 'terminal_reachable'
  | 'within_bounds'
  | 'tool_use_answered'
  | 'no_call_after_abort'
  | 'compaction_breaker'
  | 'waits_for_something';

export interface Violation {
  invariant: InvariantName;
  detail: string;
  /** The answers from the start of the run that reach the violation. */
  path: AnswerLabel[];
}

export interface ExploreOptions {
  /** Stop after this many distinct states (the result is then partial). Default 200,000. */
  maxStates?: number;
  /** Do not expand states this many answers deep (the result is then partial). Default unlimited. */
  maxDepth?: number;
  /** The reducer to fold (a mutant machine in tests); default the engine's `step()`. */
  stepper?: Stepper;
  /** The bounds to check against; default `computeBounds(config, params)`. */
  bounds?: LoopBounds;
  boundsOptions?: BoundsOptions;
  /** Stop at the first violation. */
  stopAtFirstViolation?: boolean;
}

export interface ExploreResult {
  complete: boolean;
  states: number;
  edges: number;
  /** Continue and Terminal reasons seen (the chart's transitions back to the start and into a final state). */
  transitionsCovered: string[];
  terminalsReached: string[];
  violations: Violation[];
  /** The deepest path (answers) explored. */
  maxDepth: number;
  /** For each transition covered, a shortest path of answers that takes it (`pathToScenario` writes it out). */
  examplePaths: Record<string, AnswerLabel[]>;
  bounds: LoopBounds;
}

interface Node {
  state: LoopState;
  wait: WaitState;
  counters: PathCounters;
  parent: number;
  label: AnswerLabel | null;
  depth: number;
}

const NO_COUNTERS: PathCounters = { aborted: false, failedAutocompactsInRow: 0, continues: {} };

/** Reads the effects of one step into the node: what the loop waits for now, and the invariants on calls. */
function absorb(node: Node, effects: Effect[], config: LoopConfig, bounds: LoopBounds, fail: (invariant: InvariantName, detail: string) => void): void {
  for (const effect of effects) {
    if (effect.type === 'call_model') {
      if (node.counters.aborted) fail('no_call_after_abort', `model call ${effect.modelCall} after an abort`);
      const unpaired = unpairedToolUses(effect.request.messages);
      if (unpaired.length > 0) fail('tool_use_answered', `model call ${effect.modelCall} sent tool_use ${unpaired.join(', ')} without exactly one result`);
      if (effect.modelCall > bounds.mainModelCalls) fail('within_bounds', `model call ${effect.modelCall} > bound ${bounds.mainModelCalls}`);
    } else if (effect.type === 'autocompact' && node.counters.failedAutocompactsInRow >= config.limits.autocompactMaxFailures) {
      fail('compaction_breaker', `autocompact attempted after ${node.counters.failedAutocompactsInRow} failures in a row (breaker: ${config.limits.autocompactMaxFailures})`);
    }
  }
  node.wait = waitAfter(effects, node.wait);
}

/** Counts the Continue a step took (a new `transition` object) and checks it against its bound. */
function countContinue(before: LoopState, after: LoopState, node: Node, bounds: LoopBounds, fail: (i: InvariantName, d: string) => void): void {
  const transition = after.context.transition;
  if (!transition || transition === before.context.transition) return;
  const count = (node.counters.continues[transition.reason] ?? 0) + 1;
  node.counters = { ...node.counters, continues: { ...node.counters.continues, [transition.reason]: count } };
  const bound = bounds.continues[transition.reason];
  if (count > bound) fail('within_bounds', `${transition.reason} #${count} > bound ${bound}`);
}

function pathOf(nodes: Node[], index: number): AnswerLabel[] {
  const path: AnswerLabel[] = [];
  for (let i = index; i > 0; i = nodes[i].parent) path.push(nodes[i].label as AnswerLabel);
  return path.reverse();
}

/**
 * Explores every run of the loop under `config` and `params` that the abstract environment can produce.
 *
 * @example
 * const result = exploreLoop(resolveConfig({ limits: { maxStopHookBlocking: 2 } }), { messages: [], maxTurns: 2 });
 * result.complete; // true: every reachable state was visited
 */
export function exploreLoop(config: LoopConfig, params: LoopParams, options: ExploreOptions = {}): ExploreResult {
  const stepper = options.stepper ?? engineStepper();
  const bounds = options.bounds ?? computeBounds(config, params, options.boundsOptions);
  const maxStates = options.maxStates ?? 200_000;
  const maxDepth = options.maxDepth ?? Infinity;
  const violations: Violation[] = [];
  const seenViolations = new Set<string>();
  const transitions = new Set<string>();
  const examplePaths: Record<string, AnswerLabel[]> = {};
  const cover = (reason: string, at: number, label: AnswerLabel | null) => {
    transitions.add(reason);
    if (!(reason in examplePaths)) examplePaths[reason] = label ? [...pathOf(nodes, at), label] : pathOf(nodes, at);
  };
  const terminals = new Set<string>();
  const nodes: Node[] = [];
  const edges: number[][] = [];
  const index = new Map<string, number>();
  let edgeCount = 0;
  let partial = false;
  let deepest = 0;

  const record = (from: number, invariant: InvariantName, detail: string, label: AnswerLabel | null) => {
    const key = `${invariant}:${detail}`;
    if (seenViolations.has(key)) return;
    seenViolations.add(key);
    const path = pathOf(nodes, from);
    violations.push({ invariant, detail, path: label ? [...path, label] : path });
  };

  const add = (node: Node, from: number): void => {
    const key = canonicalKey(node.state, node.wait, node.counters, config);
    const known = index.get(key);
    if (known !== undefined) {
      if (from >= 0) edges[from].push(known);
      return;
    }
    const id = nodes.length;
    nodes.push(node);
    edges.push([]);
    index.set(key, id);
    if (from >= 0) edges[from].push(id);
    if (node.state.status === 'done') {
      const reason = node.state.context.terminal?.reason ?? 'unknown';
      terminals.add(reason);
      cover(reason, id, null);
    } else if (node.wait.waiting === null) {
      record(id, 'waits_for_something', `state ${JSON.stringify(node.state.value)} waits for no answer`, null);
    }
  };

  const first = stepper.initial(params, config);
  const start: Node = { state: first.state, wait: NOTHING_PENDING, counters: NO_COUNTERS, parent: -1, label: null, depth: 0 };
  absorb(start, first.effects, config, bounds, (i, d) => violations.push({ invariant: i, detail: d, path: [] }));
  add(start, -1);

  for (let at = 0; at < nodes.length; at++) {
    if (options.stopAtFirstViolation && violations.length > 0) {
      partial = true;
      break;
    }
    const node = nodes[at];
    const waiting = node.wait.waiting;
    if (node.state.status === 'done' || waiting === null) continue;
    if (node.depth >= maxDepth) {
      partial = true;
      continue;
    }
    for (const label of answerLabels(waiting, node.state)) {
      edgeCount++;
      const next: Node = { state: node.state, wait: { waiting: null, executor: node.wait.executor }, counters: node.counters, parent: at, label, depth: node.depth + 1 };
      if (label.endsWith(':abort')) next.counters = { ...next.counters, aborted: true };
      if (label === 'autocompact:fail') next.counters = { ...next.counters, failedAutocompactsInRow: next.counters.failedAutocompactsInRow + 1 };
      // A successful compaction of either kind resets the breaker (reactive_compact_retry clears the tracking).
      if (label === 'autocompact:ok' || label === 'reactive:ok') next.counters = { ...next.counters, failedAutocompactsInRow: 0 };
      const fail = (invariant: InvariantName, detail: string) => record(at, invariant, detail, label);
      for (const event of answerEvents(label, waiting, node.state, config)) {
        const before = next.state;
        const result = stepper.step(before, event, config);
        next.state = result.state;
        countContinue(before, result.state, next, bounds, fail);
        absorb(next, result.effects, config, bounds, fail);
        for (const effect of result.effects) {
          if (effect.type === 'start_tool_use_summary') {
            const answered = stepper.step(next.state, { type: 'tool_use_summary_ready', summaryId: effect.summaryId, summary: 'Ran tools.' }, config);
            next.state = answered.state;
          }
        }
      }
      for (const reason of CONTINUE_REASONS) if ((next.counters.continues[reason] ?? 0) > (node.counters.continues[reason] ?? 0)) cover(reason, at, label);
      deepest = Math.max(deepest, next.depth);
      if (nodes.length >= maxStates && !index.has(canonicalKey(next.state, next.wait, next.counters, config))) {
        partial = true;
        continue;
      }
      add(next, at);
    }
  }

  if (!partial) findLivelocks(nodes, edges, (id, detail) => record(id, 'terminal_reachable', detail, null));
  const order = (list: readonly string[], seen: Set<string>) => list.filter((r) => seen.has(r));
  return {
    complete: !partial,
    states: nodes.length,
    edges: edgeCount,
    transitionsCovered: [...order(CONTINUE_REASONS, transitions), ...order(TERMINAL_REASONS, transitions)],
    terminalsReached: order(TERMINAL_REASONS, terminals),
    violations,
    maxDepth: deepest,
    examplePaths,
    bounds,
  };
}

/** States from which no terminal can be reached (a livelock), by walking the edges backwards from every terminal. */
function findLivelocks(nodes: Node[], edges: number[][], report: (id: number, detail: string) => void): void {
  const incoming: number[][] = nodes.map(() => []);
  edges.forEach((targets, from) => targets.forEach((to) => incoming[to].push(from)));
  const reaches = new Uint8Array(nodes.length);
  const queue: number[] = [];
  nodes.forEach((node, id) => {
    if (node.state.status === 'done') {
      reaches[id] = 1;
      queue.push(id);
    }
  });
  while (queue.length > 0) {
    const id = queue.pop() as number;
    for (const from of incoming[id]) {
      if (reaches[from]) continue;
      reaches[from] = 1;
      queue.push(from);
    }
  }
  const stuck = nodes.findIndex((_, id) => !reaches[id]);
  if (stuck >= 0) report(stuck, `no terminal is reachable from state ${JSON.stringify(nodes[stuck].state.value)}`);
}
