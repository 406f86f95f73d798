/**
 * In-process stand-ins for the model and the tools, answering from recorded data: the model replies of a
 * scenario (`{content, stop_reason, usage}`) and the tool results per tool name (`{name, results}`).
 *
 * Invariants: answers are served in order and never invented; a model call beyond the script ends that call with
 * a `model_error` saying so (the loop then ends as `model_error`), a tool call beyond its results gets an error
 * result saying so. Nothing here reads a clock or randomness: ids derive from counters.
 */
import type { ModelCaller, ModelStreamItem, ToolResultEvent } from '../data/deps.ts';
import type { StreamingToolSession, ToolRuntime } from '../data/tool-runtime.ts';
import type { AssistantContentBlock, AssistantMessage, ToolUseBlock, Usage } from '../messages/types.ts';

/** One recorded model reply (the scenario shape of `turnloop simulate`). */
export interface ScriptedReply {
  content: AssistantContentBlock[];
  stop_reason?: string | null;
  usage?: Usage;
  model?: string;
  id?: string;
}

/** Recorded results of one tool, in call order. */
export interface ScriptedTool {
  name: string;
  results: Array<{ content: string; isError?: boolean }>;
}

/** A model caller answering call n with reply n: one `model_message` per block, then `model_done`. */
export function scriptedModelCaller(replies: readonly ScriptedReply[]): ModelCaller & { calls: number } {
  let served = 0;
  const caller = async function* (request: Parameters<ModelCaller>[0]): AsyncGenerator<ModelStreamItem> {
    const reply = replies[served];
    served += 1;
    caller.calls = served;
    if (!reply) {
      yield { kind: 'event', event: { type: 'model_error', error: { kind: 'other', message: `no recorded reply for model call ${served}` } } };
      return;
    }
    const id = reply.id ?? `msg_scripted_${served}`;
    for (const [i, block] of reply.content.entries()) {
      const message: AssistantMessage = {
        type: 'assistant',
        uuid: `${id}:${i}`,
        message: { id, role: 'assistant', model: reply.model ?? request.model, content: [block], stop_reason: reply.stop_reason ?? null, ...(reply.usage ? { usage: reply.usage } : {}) },
      };
      yield { kind: 'event', event: { type: 'model_message', message } };
    }
    yield { kind: 'event', event: { type: 'model_done', usage: reply.usage, stopReason: reply.stop_reason ?? null } };
  } as unknown as ModelCaller & { calls: number };
  caller.calls = 0;
  return caller;
}

/** A tool runtime answering each tool_use with the next recorded result of its tool name. */
export function scriptedToolRuntime(tools: readonly ScriptedTool[]): ToolRuntime {
  const queues = new Map(tools.map((tool) => [tool.name, [...tool.results]]));
  let resultCount = 0;
  const answer = (toolUse: ToolUseBlock): ToolResultEvent => {
    const next = queues.get(toolUse.name)?.shift();
    const content = next?.content ?? `no recorded result for tool ${toolUse.name}`;
    const isError = next ? next.isError === true : true;
    resultCount += 1;
    return {
      type: 'tool_result',
      toolUseId: toolUse.id,
      message: {
        type: 'user',
        uuid: `scripted-result-${resultCount}`,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content, ...(isError ? { is_error: true } : {}) }] },
        sourceToolUseId: toolUse.id,
      },
    };
  };
  return {
    definitions: () => tools.map((tool) => ({ name: tool.name, description: `recorded ${tool.name}`, input_schema: { type: 'object' } })),
    concurrencySafe: (toolUses) => Object.fromEntries(toolUses.map((t) => [t.id, false])),
    runBatches: async function* (batches) {
      for (const batch of batches) for (const toolUse of batch.toolUses) yield answer(toolUse);
    },
    startStreaming(): StreamingToolSession {
      let queued: ToolUseBlock[] = [];
      return {
        enqueue: (toolUse) => void queued.push(toolUse),
        takeCompleted: () => [],
        onReady: () => undefined,
        finish: async function* () {
          const pending = queued;
          queued = [];
          for (const toolUse of pending) yield answer(toolUse);
        },
        discard: () => {
          queued = [];
        },
      };
    },
  };
}
