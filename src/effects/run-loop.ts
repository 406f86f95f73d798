/**
 * `runLoop()`: the engine behind the public `query()` (`src/api/query.ts`). It yields every emitted message, stream
 * event and `request_start`, and returns the Terminal. turnloop's own layers (resume, simulation, child runs, forks)
 * call it directly with `RunLoopOptions`, which add internal plumbing to the public options.
 *
 * Closing the generator early (`return()`) or aborting `options.signal` cancels in-flight work; the run is then
 * driven to its terminal without yielding, so every tool_use still gets its result in the recorded history.
 *
 * @example
 * const run = runLoop({ prompt: 'Fix the bug', tools, config: { model: 'claude-sonnet-4-6' } });
 * for await (const item of run) if (item.type === 'assistant') console.log(item.message.content);
 */
import { resolveConfig, type ConfigOverrides, type LoopConfig } from '../config/config.ts';
import type { Message, QueryItem } from '../messages/types.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { LoopParams } from '../reducer/state.ts';
import { createDefaultDeps } from './default-deps.ts';
import { agentRunModelCaller, budgetedModelCaller, DEFAULT_TREE_MODEL_CALLS, finalTextOf, type ChildLink, type ChildRunner } from './child-runs.ts';
import { Interpreter, NO_TOOLS } from './interpreter.ts';
import { LOOP_PARAM_KEYS, type LoopOptions, type QueryDeps, type RunLoopOptions, type RunObserver, type StepGate, type StepObserver } from './query-options.ts';
import type { ToolRuntime } from './tool-runtime.ts';
import { createToolRuntime } from './tools/create-tool-runtime.ts';
import type { Tool } from './tools/define-tool.ts';

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

export function initialMessages(options: LoopOptions, newId: () => string): Message[] {
  const messages = options.messages ?? [];
  if (options.prompt === undefined) return messages;
  return [...messages, { type: 'user', uuid: newId(), message: { role: 'user', content: options.prompt } }];
}

/** The JSON parameters of the run, as the reducer (and a session log) sees them: the allow-listed options only. */
export function loopParamsOf(options: LoopOptions, messages: Message[], startedAt: number, toolNames: string[]): LoopParams {
  const json: Record<string, unknown> = {};
  for (const key of LOOP_PARAM_KEYS) if (options[key] !== undefined) json[key] = options[key];
  return { ...json, messages, tools: toolNames, startedAt };
}

export function toolRuntimeOf(options: RunLoopOptions, config: LoopConfig, deps: QueryDeps): ToolRuntime {
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
    runChild: childRunnerOf(options, deps),
  });
}

/** Runs the subagents of this run's tool calls: the tree's budget and raw model caller pass on to grandchildren. */
function childRunnerOf(options: RunLoopOptions, deps: QueryDeps): ChildRunner {
  const tree = options.agentTree ?? {
    budget: { maxModelCalls: options.agents?.maxModelCalls ?? DEFAULT_TREE_MODEL_CALLS, used: 0 },
    callModel: deps.callModel,
    toolUseIds: [],
  };
  return async (request, call) => {
    const link: ChildLink = { agent: request.agent, toolUseIds: [...tree.toolUseIds, call.toolUseId] };
    const { items, terminal } = await runLoopToEnd({
      prompt: request.prompt,
      ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
      ...(request.maxTurns ? { maxTurns: request.maxTurns } : {}),
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
      observers: options.childObservers?.(link) ?? [],
      ...(options.childObservers ? { childObservers: options.childObservers } : {}),
      ...(options.childDeps ? { childDeps: options.childDeps } : {}),
      agentTree: { ...tree, toolUseIds: link.toolUseIds },
    });
    return { terminal, items, finalText: finalTextOf(items) };
  };
}

export async function* runLoop(options: RunLoopOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  const config = resolveRunConfig(options.config, options.maxTurns);
  const forkObservers = options.forkObservers ?? [];
  const runFork: typeof runLoopToEnd = forkObservers.length === 0 ? runLoopToEnd : (fork) => runLoopToEnd({ ...fork, observers: [...(fork.observers ?? []), ...forkObservers] });
  const deps = { ...createDefaultDeps(config, options.deps, runFork, Array.isArray(options.tools) ? (options.tools as readonly Tool[]) : undefined, options.querySource ?? 'sdk'), ...options.deps };
  const tools = toolRuntimeOf(options, config, deps);
  const toolNames = tools.definitions().map((tool) => tool.name);
  const params = loopParamsOf(options, initialMessages(options, deps.newId), deps.clock.now(), toolNames);
  const observerAbort = new AbortController();
  const abort = (reason?: string) => observerAbort.abort(reason ?? 'abort');
  const observers = (options.observers ?? []).map((create) => create({ config, params, abort }));
  const signal = observers.length === 0 ? options.signal : options.signal ? AbortSignal.any([options.signal, observerAbort.signal]) : observerAbort.signal;
  const onStep = combinedObserver(observers, options.onStep);
  const stepGate = combinedGate(observers, options.stepGate);
  const interpreter = new Interpreter({ ...options, signal, onStep, stepGate }, config, deps, params, tools);
  try {
    while (true) {
      for (const item of interpreter.takeItems()) yield item;
      if (interpreter.done) return interpreter.terminal as Terminal;
      if (!(await interpreter.advance())) break;
    }
    for (const item of interpreter.takeItems()) yield item;
    if (interpreter.terminal) return interpreter.terminal;
    throw new Error('the loop stopped without reaching a terminal');
  } finally {
    await interpreter.shutdown('closed');
    for (const observer of observers) observer.close?.();
  }
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

/** Runs `runLoop()` to its end and collects what it yielded. */
export function runLoopToEnd(options: RunLoopOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return collectToEnd(runLoop(options));
}

/** Drains a run's generator (the loop's or a driver's): the items it yielded and the terminal it returned. */
export async function collectToEnd(generator: AsyncGenerator<QueryItem, Terminal>): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  const items: QueryItem[] = [];
  while (true) {
    const next = await generator.next();
    if (next.done) return { items, terminal: next.value };
    items.push(next.value);
  }
}
