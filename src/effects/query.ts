/**
 * `query()`: the familiar async-generator face of the engine. It yields every emitted message, stream event and
 * `request_start`, and returns the Terminal. The same function serves the CLI, tests and library users.
 *
 * Closing the generator early (`return()`) or aborting `options.signal` cancels in-flight work; the run is then
 * driven to its terminal without yielding, so every tool_use still gets its result in the recorded history.
 *
 * @example
 * const run = query({ prompt: 'Fix the bug', tools, config: { model: 'claude-sonnet-4-6' } });
 * for await (const item of run) if (item.type === 'assistant') console.log(item.message.content);
 */
import { DEFAULT_CONFIG, resolveConfig, type LoopConfig } from '../config/config.ts';
import type { Message, QueryItem } from '../messages/types.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { LoopParams } from '../reducer/state.ts';
import { createDefaultDeps } from './default-deps.ts';
import { agentRunModelCaller, budgetedModelCaller, DEFAULT_TREE_MODEL_CALLS, finalTextOf, type ChildLink, type ChildRunner } from './child-runs.ts';
import { Interpreter, NO_TOOLS } from './interpreter.ts';
import type { QueryDeps, QueryOptions, RunObserver, StepGate, StepObserver } from './query-options.ts';
import type { ToolRuntime } from './tool-runtime.ts';
import { createToolRuntime } from './tools/create-tool-runtime.ts';
import type { Tool } from './tools/define-tool.ts';

function isFullConfig(config: QueryOptions['config']): config is LoopConfig {
  return config !== undefined && 'features' in config && 'limits' in config && 'models' in config && 'sessionId' in config
    && Object.keys(DEFAULT_CONFIG).every((key) => key in config);
}

export function resolveQueryConfig(config: QueryOptions['config']): LoopConfig {
  return isFullConfig(config) ? config : resolveConfig(config ?? {});
}

/**
 * The most model calls one turn can make under `limits`: its call, a fallback, the max-output recoveries, a reactive
 * compact, a collapse drain and the stop-hook retries (token-budget continuations aside: their budget bounds them).
 */
export function modelCallsPerTurn(limits: LoopConfig['limits']): number {
  return 1 + 1 + limits.maxOutputTokensRecovery + 1 + 1 + limits.maxStopHookBlocking;
}

/**
 * The run's config. The model-call cap (SPEC §9.10) bounds a loop nothing else bounds; when the caller bounds it
 * with `maxTurns` and leaves `limits.maxModelCalls` at its default, the default grows to what `maxTurns` turns may
 * use, so it never ends a run that `maxTurns` allows. An explicit `maxModelCalls` is kept as given.
 */
export function resolveRunConfig(config: QueryOptions['config'], maxTurns: number | undefined): LoopConfig {
  const resolved = resolveQueryConfig(config);
  const capGiven = isFullConfig(config) || config?.limits?.maxModelCalls !== undefined;
  if (capGiven || maxTurns === undefined) return resolved;
  const needed = maxTurns * modelCallsPerTurn(resolved.limits);
  if (needed <= resolved.limits.maxModelCalls) return resolved;
  return { ...resolved, limits: { ...resolved.limits, maxModelCalls: needed } };
}

export function initialMessages(options: QueryOptions, newId: () => string): Message[] {
  const messages = options.messages ?? [];
  if (options.prompt === undefined) return messages;
  return [...messages, { type: 'user', uuid: newId(), message: { role: 'user', content: options.prompt } }];
}

/** The JSON parameters of the run, as the reducer (and a session log) sees them. */
export function loopParamsOf(options: QueryOptions, messages: Message[], startedAt: number, toolNames: string[]): LoopParams {
  const {
    prompt: _prompt, messages: _messages, tools: _tools, stopHooks: _s, stopFailureHooks: _f, postSamplingHooks: _p,
    signal: _signal, config: _config, deps: _deps, onStep: _onStep, stepGate: _stepGate, resumeFrom: _resumeFrom, canUseTool: _canUseTool,
    observers: _observers, forkObservers: _forkObservers, agents: _agents, childObservers: _childObservers, childDeps: _childDeps, agentTree: _agentTree, ...json
  } = options;
  return { ...json, messages, tools: toolNames, startedAt };
}

export function toolRuntimeOf(options: QueryOptions, config: LoopConfig, deps: QueryDeps): ToolRuntime {
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
    runChild: childRunnerOf(options, deps),
  });
}

/** Runs the subagents of this run's tool calls: the tree's budget and raw model caller pass on to grandchildren. */
function childRunnerOf(options: QueryOptions, deps: QueryDeps): ChildRunner {
  const tree = options.agentTree ?? {
    budget: { maxModelCalls: options.agents?.maxModelCalls ?? DEFAULT_TREE_MODEL_CALLS, used: 0 },
    callModel: deps.callModel,
    toolUseIds: [],
  };
  return async (request, call) => {
    const link: ChildLink = { agent: request.agent, toolUseIds: [...tree.toolUseIds, call.toolUseId] };
    const { items, terminal } = await runQuery({
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

export async function* query(options: QueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  const config = resolveRunConfig(options.config, options.maxTurns);
  const forkObservers = options.forkObservers ?? [];
  const runFork: typeof runQuery = forkObservers.length === 0 ? runQuery : (fork) => runQuery({ ...fork, observers: [...(fork.observers ?? []), ...forkObservers] });
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

/** Runs `query()` to its end and collects what it yielded. */
export async function runQuery(options: QueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  const items: QueryItem[] = [];
  const generator = query(options);
  while (true) {
    const next = await generator.next();
    if (next.done) return { items, terminal: next.value };
    items.push(next.value);
  }
}
