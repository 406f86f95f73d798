/**
 * The scenario's `agents` section as real subagents: each agent becomes a `defineAgentTool` whose every
 * invocation runs a real child loop (`ctx.runChild`), answered by the fake API from that run's own scripted list.
 *
 * Invariants:
 * - Invocation i of an agent (the i-th call that reaches it, in the order the engine starts them, which is the
 *   order of the parent's tool_use blocks) is scripted by `runs[i]`, unless a run names its tool_use id. A call the
 *   runtime refuses before it reaches the tool (invalid input, permission denied) starts no child and takes no run.
 *   An invocation with no run left gets an empty list: its first request finds the script exhausted (500).
 * - Before the child's first request its list is handed to the fake API under the child's `x-turnloop-agent-run`
 *   key, so concurrent children are answered from their own lists whatever order their requests arrive in.
 * - Deterministic under concurrency: each child has its own ids (`sim:<toolUseId>-<n>`) and virtual clock (starting
 *   at the parent's time), and an invocation hands its result to the parent only after every invocation started
 *   before it has (then one macrotask later), so the parent sees subagents' results in invocation order.
 */
import { agentRunKey } from '../config/wire.ts';
import { defineAgentTool } from '../agents/index.ts';
import type { ChildLink } from '../tools/child-runs.ts';
import type { Clock, IdGenerator } from '../data/deps.ts';
import type { RunObserverFactory } from '../runtime/query-options.ts';
import { counterIds, virtualClock } from '../runtime/system-clock.ts';
import type { Tool, ToolCallResult } from '../tools/define-tool.ts';
import type { FakeApi } from '../fake-api/index.ts';
import type { ContinueReason, Terminal } from '../data/outcomes.ts';
import { createRunObserver, type RunObservation } from './run-observer.ts';
import type { ScenarioAgent, ScenarioAgentRun } from './scenario-schema.ts';
import { scriptedTool, type ToolCallRecord } from './scripted-tools.ts';

/** One child run a scripted agent started, in invocation order. */
export interface AgentRunRecord {
  agent: string;
  /** Which of the agent's `runs` scripted it (0-based); null when none was left. */
  run: number | null;
  toolUseId: string;
  /** null when the child had not ended (it cannot, unless the simulation itself failed). */
  terminal: Terminal | null;
  transitions: ContinueReason[];
  modelCalls: number;
  /** Invocations that reached the child's scripted tools. */
  toolCalls: ToolCallRecord[];
  /** True when a request of this child found its list used up. */
  scriptExhausted: boolean;
  /** The request bodies of this child (compaction requests included), in order. */
  requests: unknown[];
}

export interface ScriptedAgents {
  tools: Tool[];
  /** For `query()`'s `childObservers`: watches each child (plus any observers `more` adds for it). */
  childObservers(more?: (link: ChildLink) => readonly RunObserverFactory[]): (link: ChildLink) => RunObserverFactory[];
  /** For `query()`'s `childDeps`: each child's own ids and clock. */
  childDeps(link: ChildLink): { newId: IdGenerator; clock: Clock };
  /** The child runs started so far, in invocation order (requests and exhaustion read from the fake API's log). */
  runs(): AgentRunRecord[];
}

interface Invocation {
  record: AgentRunRecord;
  /** Set once the child run starts. */
  observation?: RunObservation;
  key: string;
}

/** Which run scripts each call of one agent: by tool_use id when a run names one, else the next unnamed run. */
function runPicker(agent: ScenarioAgent): (toolUseId: string) => number | null {
  const byId = new Map<string, number>();
  const positional: number[] = [];
  agent.runs.forEach((run, i) => (run.toolUseId === undefined ? positional.push(i) : byId.set(run.toolUseId, i)));
  let next = 0;
  return (toolUseId) => byId.get(toolUseId) ?? positional[next++] ?? null;
}

/**
 * @example
 * const agents = scriptedAgents(scenario.agents, api, () => clock.now());
 * query({ tools: [...tools, ...agents.tools], childObservers: agents.childObservers(), childDeps: agents.childDeps });
 */
export function scriptedAgents(agents: readonly ScenarioAgent[], api: FakeApi, parentNow: () => number): ScriptedAgents {
  const invocations: Invocation[] = [];
  const byToolUseId = new Map<string, Invocation>();
  // Settles once every invocation started so far has handed its result on.
  let handedOn: Promise<unknown> = Promise.resolve();

  const toolOf = (agent: ScenarioAgent): Tool => {
    const pick = runPicker(agent);
    const base = {
      name: agent.name,
      description: agent.description,
      ...(agent.systemPrompt === undefined ? {} : { systemPrompt: agent.systemPrompt }),
      ...(agent.maxTurns === undefined ? {} : { maxTurns: agent.maxTurns }),
      concurrencySafe: agent.concurrencySafe,
    };
    const template = defineAgentTool(base) as Tool;
    return {
      ...template,
      async call(input, ctx) {
        const run = pick(ctx.toolUseId);
        const script: ScenarioAgentRun | undefined = run === null ? undefined : agent.runs[run];
        const key = agentRunKey([ctx.toolUseId]);
        const toolCalls: ToolCallRecord[] = [];
        api.scriptAgentRun(key, script?.model ?? []);
        const record: AgentRunRecord = { agent: agent.name, run, toolUseId: ctx.toolUseId, terminal: null, transitions: [], modelCalls: 0, toolCalls, scriptExhausted: false, requests: [] };
        const invocation: Invocation = { record, key };
        invocations.push(invocation);
        byToolUseId.set(ctx.toolUseId, invocation);
        const before = handedOn;
        let handOn!: () => void;
        handedOn = Promise.all([before, new Promise<void>((resolve) => (handOn = resolve))]);
        const tools = (script?.tools ?? []).map((tool) => scriptedTool(tool, (call) => toolCalls.push(call)));
        try {
          return await (defineAgentTool({ ...base, tools }).call(input as never, ctx) as Promise<ToolCallResult>);
        } finally {
          // Back to the parent only after every earlier invocation's result, and a macrotask later (by then the
          // runtime has reported those): the parent sees results in invocation order, whichever child ended first.
          await before;
          await new Promise((resolve) => setImmediate(resolve));
          handOn();
        }
      },
    } as Tool;
  };

  const watch = (link: ChildLink): RunObserverFactory => () => {
    const invocation = byToolUseId.get(link.toolUseIds.at(-1)!);
    const observer = createRunObserver();
    if (invocation) invocation.observation = observer.observation;
    return {
      onStep: (step) => {
        observer.onStep(step);
        if (invocation && step.state.status === 'done') invocation.record.terminal = step.state.context.terminal ?? null;
      },
    };
  };

  return {
    tools: agents.map(toolOf),
    childObservers: (more) => (link) => [watch(link), ...(more?.(link) ?? [])],
    childDeps: (link) => ({ newId: counterIds(`sim:${link.toolUseIds.join('/')}`), clock: virtualClock(parentNow()) }),
    runs: () =>
      invocations.map(({ record, observation, key }) => {
        const log = api.log.filter((entry) => entry.agentRun === key);
        return {
          ...record,
          transitions: observation?.transitions ?? [],
          modelCalls: observation?.modelCalls ?? 0,
          scriptExhausted: log.some((entry) => entry.exhausted === true),
          requests: log.map((entry) => entry.body),
        };
      }),
  };
}
