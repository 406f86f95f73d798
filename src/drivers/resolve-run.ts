/**
 * `resolveRun()`: the one place that turns a run's options into what a driver runs: its config, its dependencies,
 * its tool runtime, and (once its params are known) its observers. Both drivers call it, the in-memory one
 * (`runLoop()`, `./run-loop.ts`) and the journaled one (`src/durable/durable-query.ts`), so a run's context
 * layers, tool-result budget, tools, forks and observers cannot differ between them.
 *
 * Invariants:
 * - The deps a caller gives win over the defaults, field by field; the defaults are built for the run's config,
 *   its tools (their declared result sizes) and its query source (`'sdk'` unless given).
 * - Child runs (subagents) and forks (the compactor's own loop) run in memory (`runChild`), under either driver:
 *   what they return is the answer a journal records.
 */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import type { Message, QueryItem } from '../messages/types.ts';
import type { LoopParams } from '../data/state.ts';
import { agentRunModelCaller, budgetedModelCaller, DEFAULT_TREE_MODEL_CALLS, finalTextOf, type ChildLink, type ChildRunner } from '../tools/child-runs.ts';
import { createDefaultDeps } from '../runtime/default-deps.ts';
import type { IdGenerator } from '../data/deps.ts';
import { NO_TOOLS } from '../runtime/no-tools.ts';
import {
  LOOP_PARAM_KEYS, type LoopOptions, type QueryDeps, type RunLoopOptions, type RunObserver, type StepGate, type StepObserver,
} from '../runtime/query-options.ts';
import type { ToolRuntime } from '../data/tool-runtime.ts';
import { createToolRuntime } from '../tools/create-tool-runtime.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { Terminal } from '../data/outcomes.ts';

/** Runs a run in memory to its end (`runLoopToEnd`): how children and forks run, whatever drives their parent. */
export type RunToEnd = (options: RunLoopOptions) => Promise<{ items: QueryItem[]; terminal: Terminal }>;

/** What a driver runs: the options resolved once. */
export interface ResolvedRun {
  config: LoopConfig;
  deps: QueryDeps;
  tools: ToolRuntime;
}

/** The observers of a run, combined: one step observer, one gate, and what ends them. */
export interface RunWatch {
  onStep: StepObserver | undefined;
  stepGate: StepGate | undefined;
  /** Aborted when an observer aborts the run. */
  abortSignal: AbortSignal | null;
  close(): void;
}

/**
 * The most model calls one turn can make under `limits`: its call, a fallback, the max-output recoveries, a reactive
 * compact, a collapse drain and the stop-hook retries (token-budget continuations aside: their budget bounds them).
 */
export function modelCallsPerTurn(limits: LoopConfig['limits']): number {
  return 1 + 1 + limits.maxOutputTokensRecovery + 1 + 1 + limits.maxStopHookBlocking;
}

/**
 * The run's config: the overrides over the defaults. One documented rule (`Limits.maxModelCalls`, docs/fidelity.md):
 * the model-call cap (docs/loop.md §9.10) bounds a loop nothing else bounds; when the caller bounds it with
 * `maxTurns` and leaves `limits.maxModelCalls` unset, the default grows to what `maxTurns` turns may use, so it never
 * ends a run that `maxTurns` allows. A `maxModelCalls` given (a full config gives one) is kept as given.
 */
export function resolveRunConfig(config: ConfigOverrides | undefined, maxTurns: number | undefined): LoopConfig {
  const resolved = resolveConfig(config ?? {});
  const capGiven = config?.limits?.maxModelCalls !== undefined;
  if (capGiven || maxTurns === undefined) return resolved;
  const needed = maxTurns * modelCallsPerTurn(resolved.limits);
  if (needed <= resolved.limits.maxModelCalls) return resolved;
  return { ...resolved, limits: { ...resolved.limits, maxModelCalls: needed } };
}

/**
 * Resolves a run: config, deps, tools. `newId` replaces the ids of the deps given (the durable driver's ids scoped
 * to its journal entries); `runChild` runs children and forks.
 */
export function resolveRun(options: RunLoopOptions, runChild: RunToEnd, newId?: IdGenerator): ResolvedRun {
  const config = resolveRunConfig(options.config, options.maxTurns);
  const given = newId === undefined ? options.deps : { ...options.deps, newId };
  const forkObservers = options.forkObservers ?? [];
  const runFork: RunToEnd = forkObservers.length === 0 ? runChild : (fork) => runChild({ ...fork, observers: [...(fork.observers ?? []), ...forkObservers] });
  const listed = Array.isArray(options.tools) ? (options.tools as readonly Tool[]) : undefined;
  const deps = { ...createDefaultDeps(config, given, runFork, listed, options.querySource ?? 'sdk'), ...given };
  return { config, deps, tools: toolRuntimeOf(options, config, deps, runChild) };
}

/** The run's JSON params (`LoopParams`): its first messages get their ids, and the run its start time, now. */
export function runParamsOf(options: LoopOptions, { deps, tools }: ResolvedRun): LoopParams {
  const toolNames = tools.definitions().map((tool) => tool.name);
  return loopParamsOf(options, initialMessages(options, deps.newId), deps.clock.now(), toolNames);
}

export function initialMessages(options: LoopOptions, newId: () => string): Message[] {
  const messages = options.messages ?? [];
  if (options.prompt === undefined) return messages;
  // Each level its own literal (docs/architecture.md, "Literals of one level").
  const message = { role: 'user' as const, content: options.prompt };
  return [...messages, { type: 'user', uuid: newId(), message }];
}

/** The JSON parameters of the run, as the reducer (and a session log) sees them: the allow-listed options only. */
export function loopParamsOf(options: LoopOptions, messages: Message[], startedAt: number, toolNames: string[]): LoopParams {
  const json: Record<string, unknown> = {};
  for (const key of LOOP_PARAM_KEYS) if (options[key] !== undefined) json[key] = options[key];
  return { ...json, messages, tools: toolNames, startedAt };
}

/**
 * The run's observers, created once its config and params are known, combined with `onStep` and `stepGate`.
 * An observer that aborts the run aborts `abortSignal`.
 */
export function watchRun(options: LoopOptions, config: LoopConfig, params: LoopParams): RunWatch {
  const factories = options.observers ?? [];
  if (factories.length === 0) return { onStep: options.onStep, stepGate: options.stepGate, abortSignal: null, close: () => undefined };
  const observerAbort = new AbortController();
  const abort = (reason?: string) => observerAbort.abort(reason ?? 'abort');
  const observers = factories.map((create) => create({ config, params, abort }));
  return {
    onStep: combinedObserver(observers, options.onStep),
    stepGate: combinedGate(observers, options.stepGate),
    abortSignal: observerAbort.signal,
    close: () => {
      for (const observer of observers) observer.close?.();
    },
  };
}

export function combinedObserver(observers: RunObserver[], onStep: StepObserver | undefined): StepObserver | undefined {
  if (observers.length === 0) return onStep;
  return (step) => {
    for (const observer of observers) observer.onStep(step);
    onStep?.(step);
  };
}

function combinedGate(observers: RunObserver[], gate: StepGate | undefined): StepGate | undefined {
  const gates = observers.flatMap((observer) => (observer.gate ? [observer.gate] : []));
  if (gate) gates.push(gate);
  if (gates.length <= 1) return gates[0];
  return async (step, signal) => {
    for (const each of gates) await each(step, signal);
  };
}

function toolRuntimeOf(options: RunLoopOptions, config: LoopConfig, deps: QueryDeps, runChild: RunToEnd): ToolRuntime {
  const tools = options.tools;
  if (tools === undefined) return NO_TOOLS;
  if (!Array.isArray(tools) && typeof tools !== 'function') return tools as ToolRuntime;
  return createToolRuntime({
    tools: tools as readonly Tool[] | (() => readonly Tool[]),
    newId: deps.newId,
    clock: deps.clock,
    timeoutMs: config.toolTimeoutMs,
    maxConcurrency: config.limits.maxToolConcurrency,
    canUseTool: options.canUseTool,
    ...(options.preToolHooks ? { preToolHooks: options.preToolHooks } : {}),
    ...(options.postToolHooks ? { postToolHooks: options.postToolHooks } : {}),
    runChild: childRunnerOf(options, deps, runChild),
  });
}

/** Runs the subagents of this run's tool calls: the tree's budget and raw model caller pass on to grandchildren. */
function childRunnerOf(options: RunLoopOptions, deps: QueryDeps, runChild: RunToEnd): ChildRunner {
  const tree = options.agentTree ?? {
    budget: { maxModelCalls: options.agents?.maxModelCalls ?? DEFAULT_TREE_MODEL_CALLS, used: 0 },
    callModel: deps.callModel,
    toolUseIds: [],
  };
  return async (request, call) => {
    const link: ChildLink = { agent: request.agent, toolUseIds: [...tree.toolUseIds, call.toolUseId] };
    const { items, terminal } = await runChild({
      prompt: request.prompt,
      ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
      ...(request.maxTurns ? { maxTurns: request.maxTurns } : {}),
      ...(request.stopHooks ? { stopHooks: request.stopHooks } : {}),
      ...(request.preToolHooks ? { preToolHooks: request.preToolHooks } : {}),
      ...(request.postToolHooks ? { postToolHooks: request.postToolHooks } : {}),
      tools: request.tools ?? [],
      querySource: `agent:${request.agent}`,
      signal: call.signal,
      config: request.config ?? {},
      deps: {
        callModel: agentRunModelCaller(budgetedModelCaller(tree.callModel, tree.budget), link.toolUseIds),
        clock: deps.clock,
        newId: deps.newId,
        ...options.childDeps?.(link),
      },
      ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      observers: options.childObservers?.(link) ?? [],
      ...(options.childObservers ? { childObservers: options.childObservers } : {}),
      ...(options.childDeps ? { childDeps: options.childDeps } : {}),
      agentTree: { ...tree, toolUseIds: link.toolUseIds },
    });
    return { terminal, items, finalText: finalTextOf(items) };
  };
}
