/**
 * `simulateScenario()`: one loop run (`runLoop()`) against the environment a scenario scripts.
 *
 * Invariants:
 * - The model is always reached through the real Anthropic adapter and the real SDK, talking to the loopback
 *   fake Messages API (`src/fake-api`); compaction requests are answered from `compactionModel`.
 * - Deterministic: counter ids, a virtual clock (backoff sleeps take no time), atomic model calls
 *   (`buffered-model-caller.ts`) and an abort fired from `onStep` (`abort-trigger.ts`). Two runs of one scenario
 *   give the same result, byte for byte once serialised.
 * - The fake API is closed and the session log (if any) is closed whatever happens.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { resolveConfig } from '../config/config.ts';
import { createAnthropicModelCaller } from '../model/index.ts';
import { runLoop } from '../drivers/run-loop.ts';
import type { QueryDeps, RunLoopOptions, RunObserverFactory, StepObserver } from '../runtime/query-options.ts';
import { counterIds, virtualClock } from '../runtime/system-clock.ts';
import { startFakeAnthropicApi, type FakeApi } from '../fake-api/index.ts';
import type { Message, QueryItem } from '../messages/types.ts';
import type { ContinueReason, Terminal } from '../data/outcomes.ts';
import { childLogDir, createSessionRecorder, recordChildrenBeside, type RecordTarget } from '../replay/index.ts';
import { abortTrigger } from './abort-trigger.ts';
import { bufferedModelCaller } from './buffered-model-caller.ts';
import { createRunObserver, type RunObservation } from './run-observer.ts';
import type { Scenario } from './scenario-schema.ts';
import { scriptedCompactionDeps } from './scripted-compaction.ts';
import { scriptedAgents, type AgentRunRecord } from './scripted-agents.ts';
import { scriptedStopHook } from './scripted-stop-hooks.ts';
import { scriptedTool, type ToolCallRecord } from './scripted-tools.ts';
import { toEngineMessages } from './to-engine-messages.ts';

/** Virtual time at which every simulation starts (2025-01-01T00:00:00Z). */
export const SIMULATION_EPOCH = Date.UTC(2025, 0, 1);
const FAKE_API_KEY = 'sk-ant-simulation-not-a-real-key';

export interface SimulationResult {
  terminal: Terminal;
  transitions: ContinueReason[];
  modelCalls: number;
  /** Every request body of the root run the fake API received (compaction requests included), in order. */
  requests: unknown[];
  /** Every message the run emitted, in order (no stream events). */
  emitted: Message[];
  /** Invocations that reached a scripted tool. */
  toolCalls: ToolCallRecord[];
  stopHookCalls: number;
  compactions: RunObservation['compactions'];
  /** True when the fake API ran out of the root run's scripted answers (it then answered 500). */
  scriptExhausted: boolean;
  /** Requests the fake API refused as the real API would (the rule broken and the real error text), in order. */
  rejections: Array<{ queue: 'model' | 'compactionModel'; rule: string; message: string; agentRun?: string }>;
  /** The child runs the scenario's agents started, in invocation order (their requests and tool calls apart). */
  agentRuns: AgentRunRecord[];
}

export interface SimulateOptions {
  /** Record a session log (a path is truncated first); to a path, the subagents' logs go beside it (`<log>.agents/`). */
  record?: RecordTarget;
  /** Told at once when writing the session log fails (recording stops; the run goes on). Default: a process warning. */
  onRecordError?: (error: Error) => void;
  /** Sees every yielded item as it happens (live transcripts). */
  onItem?: (item: QueryItem) => void;
  onStep?: StepObserver;
  /** Run observers (a recorder, the live inspector), as `query()`'s `observers`. */
  observers?: readonly RunObserverFactory[];
  /** Called once the loopback fake API listens (tests watch its requests as the run goes). */
  onFakeApi?: (api: FakeApi) => void;
  /** The driver that runs the loop: `runLoop()` unless given (e.g. the durable driver over a journal). */
  driver?: (options: RunLoopOptions) => AsyncGenerator<QueryItem, Terminal, undefined>;
}

function queryOptionsOf(scenario: Scenario, newId: () => string, model: string): RunLoopOptions {
  const p = scenario.params;
  const system = p.system === undefined ? undefined : typeof p.system === 'string' ? [p.system] : p.system;
  return {
    messages: toEngineMessages(p.messages, newId, model),
    ...(p.prompt === undefined ? {} : { prompt: p.prompt }),
    ...(system === undefined ? {} : { systemPrompt: system }),
    ...(p.maxTurns === undefined ? {} : { maxTurns: p.maxTurns }),
    ...(p.fallbackModel === undefined ? {} : { fallbackModel: p.fallbackModel }),
    ...(p.tokenBudget === undefined ? {} : { tokenBudget: p.tokenBudget }),
    ...(p.taskBudget === undefined ? {} : { taskBudget: p.taskBudget }),
    ...(p.querySource === undefined ? {} : { querySource: p.querySource }),
    ...(p.maxOutputTokensOverride === undefined ? {} : { maxOutputTokensOverride: p.maxOutputTokensOverride }),
    ...(p.thinking === undefined ? {} : { thinking: p.thinking }),
  };
}

/**
 * @example
 * const result = await simulateScenario(loadScenario('examples/scenarios/completed.json', cwd));
 * result.terminal // { reason: 'completed' }
 */
export async function simulateScenario(scenario: Scenario, options: SimulateOptions = {}): Promise<SimulationResult> {
  const config = resolveConfig(scenario.config);
  // Before the fake API starts: a log that cannot be opened must not leave a server holding the process open.
  if (typeof options.record === 'string') {
    writeFileSync(options.record, '');
    // The children of an earlier run recorded to this path are not this run's.
    rmSync(childLogDir(options.record), { recursive: true, force: true });
  }
  const recorder = options.record === undefined ? null : createSessionRecorder(options.record, { config, ...(options.onRecordError ? { onError: options.onRecordError } : {}) });
  // No compactionModel list: the fake answers every compaction request with its default summary.
  const api = await startFakeAnthropicApi(
    { model: scenario.model, ...(scenario.compactionModel === undefined ? {} : { compactionModel: scenario.compactionModel }) },
    { models: { models: config.models, defaultModelInfo: config.defaultModelInfo } },
  );
  options.onFakeApi?.(api);
  try {
    const newId = counterIds('sim');
    const toolCalls: ToolCallRecord[] = [];
    const stopHook = scriptedStopHook(scenario.stopHooks);
    const observer = createRunObserver();
    const abort = scenario.abort ? abortTrigger(scenario.abort) : null;
    const clock = virtualClock(SIMULATION_EPOCH);
    const agents = scriptedAgents(scenario.agents, api, () => clock.now());
    const recordChildren = typeof options.record === 'string' ? recordChildrenBeside(options.record) : undefined;
    const deps: Partial<QueryDeps> = {
      callModel: bufferedModelCaller(createAnthropicModelCaller({ apiKey: FAKE_API_KEY, baseURL: api.baseURL })),
      clock,
      newId,
      ...scriptedCompactionDeps(scenario.compaction),
    };
    const onStep: StepObserver = (step) => {
      observer.onStep(step);
      abort?.onStep(step);
      recorder?.(step);
      options.onStep?.(step);
    };
    const run = (options.driver ?? runLoop)({
      ...queryOptionsOf(scenario, newId, config.model),
      tools: [...scenario.tools.map((tool) => scriptedTool(tool, (call) => toolCalls.push(call))), ...agents.tools],
      ...(scenario.agents.length > 0 ? { childObservers: agents.childObservers(recordChildren), childDeps: agents.childDeps } : {}),
      stopHooks: scenario.stopHooks.length > 0 ? [stopHook.hook] : [],
      ...(abort ? { signal: abort.signal } : {}),
      config,
      deps,
      onStep,
      ...(options.observers ? { observers: options.observers } : {}),
    });
    const emitted: Message[] = [];
    let next = await run.next();
    while (!next.done) {
      options.onItem?.(next.value);
      if (next.value.type !== 'stream_event' && next.value.type !== 'request_start') emitted.push(next.value);
      next = await run.next();
    }
    return {
      terminal: next.value,
      transitions: observer.observation.transitions,
      modelCalls: observer.observation.modelCalls,
      requests: api.log.filter((entry) => entry.agentRun === undefined).map((entry) => entry.body),
      emitted,
      toolCalls,
      stopHookCalls: stopHook.calls(),
      compactions: observer.observation.compactions,
      scriptExhausted: api.log.some((entry) => entry.agentRun === undefined && entry.exhausted === true),
      rejections: api
        .rejections()
        .map(({ queue, rejected, agentRun }) => ({ queue, rule: rejected!.rule, message: rejected!.message, ...(agentRun === undefined ? {} : { agentRun }) })),
      agentRuns: agents.runs(),
    };
  } finally {
    recorder?.close();
    await api.close();
  }
}
