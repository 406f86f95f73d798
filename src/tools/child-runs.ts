/**
 * Child runs: a tool call (a subagent) runs a nested loop on behalf of its parent. The parent's `query()` hands
 * each tool call a `runChild` that runs the child with the parent's model caller, clock and ids, under the
 * parent's abort signal (an interrupt of the parent reaches the child through the child's normal abort path),
 * with `querySource: 'agent:<name>'` (so the subagent rules of docs/loop.md apply: §4.11, §8), observed as its own run linked to the
 * parent's tool_use id.
 *
 * Invariant: every model call of a whole tree of runs is counted against one budget. A call over it is not sent:
 * the caller answers with an API-error message instead, so a subagent that spawns subagents cannot loop forever.
 */
import type { ConfigOverrides } from '../config/config.ts';
import type { AssistantMessage, QueryItem } from '../messages/types.ts';
import { apiErrorMessage } from '../messages/message-factory.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { ModelCaller, StopHook } from '../data/deps.ts';
import type { Tool } from './define-tool.ts';
import type { PostToolHook, PreToolHook } from './call-deps.ts';

/** What a subagent tool asks its parent to run. */
export interface ChildRunRequest {
  /** The agent's name: the child runs with `querySource: 'agent:<name>'`. */
  agent: string;
  prompt: string;
  systemPrompt?: string[];
  tools?: readonly Tool[];
  /** Stop after this many model turns (0 or absent: no limit). */
  maxTurns?: number;
  /** Config of the child (e.g. `{ model }`); the parent's config is not inherited. */
  config?: ConfigOverrides;
  /** The child's own Stop hooks (an SDK program's SubagentStop hooks); the parent's are not inherited. */
  stopHooks?: StopHook[];
  /** The child's own tool hooks (an SDK program's, told which subagent calls); the parent's are not inherited. */
  preToolHooks?: PreToolHook[];
  postToolHooks?: PostToolHook[];
}

export interface ChildRunResult {
  terminal: Terminal;
  items: QueryItem[];
  /** The text of the child's last assistant message that is not an API error, or null. */
  finalText: string | null;
}

/** Which parent call a child run belongs to: the path of tool_use ids from the root (the last one is its own). */
export interface ChildLink {
  agent: string;
  toolUseIds: string[];
}

/** Runs a child for one tool call (bound by the tool runtime to that call's id and signal). */
export type ChildRunner = (request: ChildRunRequest, call: { toolUseId: string; signal: AbortSignal }) => Promise<ChildRunResult>;

/** The shared count of model calls of a tree of runs. */
export interface TreeBudget {
  readonly maxModelCalls: number;
  used: number;
}

export const DEFAULT_TREE_MODEL_CALLS = 200;

/** Counts every call against `budget`; a call over it is answered with an API-error message, not sent. */
export function budgetedModelCaller(callModel: ModelCaller, budget: TreeBudget): ModelCaller {
  return async function* (request, options) {
    if (budget.used >= budget.maxModelCalls) {
      const text = `the agent tree's model-call budget (${budget.maxModelCalls}) is spent: no further model call is made`;
      const message: AssistantMessage = apiErrorMessage(options.newId(), request.model, 'other', text, { errorType: 'tree_budget' });
      yield { kind: 'event', event: { type: 'model_message', message } };
      yield { kind: 'event', event: { type: 'model_done', stopReason: null } };
      return;
    }
    budget.used += 1;
    yield* callModel(request, options);
  };
}

/** Tells each call which child run it belongs to (`ModelCallOptions.agentRun`: the adapter sends it on the wire). */
export function agentRunModelCaller(callModel: ModelCaller, toolUseIds: readonly string[]): ModelCaller {
  return (request, options) => callModel(request, { ...options, agentRun: toolUseIds });
}

/** The text a child run ends with, for its parent's tool result. */
export function finalTextOf(items: readonly QueryItem[]): string | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type !== 'assistant' || item.apiError) continue;
    const text = item.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    if (text.trim() !== '') return text;
  }
  return null;
}
