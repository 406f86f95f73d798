/** Scripted models for trees of runs: each query source (the main loop, `agent:<name>`) has its own replies. */
import type { ModelCaller } from '../../../src/data/deps.ts';
import type { AssistantContentBlock } from '../../../src/messages/types.ts';
import { scriptedModelCaller, type ScriptedReply } from '../../../src/replay/scripted-deps.ts';

export type Replies = Record<string, ScriptedReply[]>;

/** Answers each call from the queue of its query source (`sdk` for a root run without one). */
/** `delayMs` applies to subagents' calls only (`agent:*`), so a parent's reply arrives at once. */
export function routedModelCaller(replies: Replies, options: { delayMs?: number } = {}): ModelCaller & { calls: Map<string, number>; total(): number; /** Subagent calls in flight now, and at most. */ active: number; maxActive: number } {
  const callers = new Map(Object.entries(replies).map(([source, list]) => [source, scriptedModelCaller(list)]));
  const calls = new Map<string, number>();
  const routed = async function* (request: Parameters<ModelCaller>[0], callOptions: Parameters<ModelCaller>[1]) {
    calls.set(callOptions.querySource, (calls.get(callOptions.querySource) ?? 0) + 1);
    const caller = callers.get(callOptions.querySource);
    if (!caller) throw new Error(`no scripted replies for query source ${callOptions.querySource}`);
    const child = callOptions.querySource.startsWith('agent:');
    if (child) routed.active += 1;
    routed.maxActive = Math.max(routed.maxActive, routed.active);
    try {
      if (child && options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      yield* caller(request, callOptions);
    } finally {
      if (child) routed.active -= 1;
    }
  } as unknown as ModelCaller & { calls: Map<string, number>; total(): number; active: number; maxActive: number };
  routed.calls = calls;
  routed.total = () => [...calls.values()].reduce((a, b) => a + b, 0);
  routed.active = 0;
  routed.maxActive = 0;
  return routed;
}

export const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] as AssistantContentBlock[] });
export const toolUses = (...uses: Array<{ id: string; name: string; prompt: string }>): ScriptedReply => ({
  content: uses.map((u) => ({ type: 'tool_use', id: u.id, name: u.name, input: { prompt: u.prompt } })) as AssistantContentBlock[],
});
