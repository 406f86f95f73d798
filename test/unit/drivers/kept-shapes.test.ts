/**
 * The latest instance of each per-run class of the shell stays reachable (src/tools/kept-shapes.ts), so a full GC
 * between runs does not drop the hidden classes every turn's code has seen; the interpreter kept that way holds no
 * data of its finished run.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { ModelCaller, ModelStreamItem } from '../../../src/data/deps.ts';
import { EventChannel } from '../../../src/drivers/event-channel.ts';
import { Interpreter } from '../../../src/drivers/interpreter.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import { ToolUseIdRegistry } from '../../../src/runtime/unique-tool-use-ids.ts';
import { CancelGroup } from '../../../src/tools/cancellation.ts';
import { CancellationRace } from '../../../src/tools/cancellation-race.ts';
import { echoTool as echo } from '../../helpers/echo-tool.ts';
import { keptInstanceOf } from '../../../src/tools/kept-shapes.ts';
import { LazyAbortController } from '../../../src/tools/lazy-abort-controller.ts';
import { StreamingToolExecutor } from '../../../src/tools/streaming-executor.ts';

const SECRET = 'a history only the finished run had';

function caller(): ModelCaller {
  let call = 0;
  return async function* (request): AsyncGenerator<ModelStreamItem> {
    call += 1;
    const block = call === 1
      ? { type: 'tool_use' as const, id: 'call_1', name: 'echo', input: { text: SECRET } }
      : { type: 'text' as const, text: 'done' };
    const message: AssistantMessage = { type: 'assistant', uuid: `m${call}`, message: { id: `m${call}`, role: 'assistant', model: request.model, content: [block], stop_reason: call === 1 ? 'tool_use' : 'end_turn' } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', stopReason: message.message.stop_reason } };
  };
}

describe('the latest instance of each per-run class', () => {
  it('is kept after a run: the interpreter, its queue, the streaming executor, its controllers and group, the id registry, a tool call\'s cancellation race', async () => {
    const { terminal } = await runLoopToEnd({ prompt: SECRET, config: resolveConfig({ sessionId: 'kept' }), tools: [echo], deps: { callModel: caller() }, onStep: () => undefined });
    expect(terminal.reason).toBe('completed');
    for (const type of [Interpreter, EventChannel, StreamingToolExecutor, LazyAbortController, CancelGroup, ToolUseIdRegistry, CancellationRace]) {
      expect.soft(keptInstanceOf(type), type.name).toBeInstanceOf(type);
    }
  });

  it('holds no data of the finished run in the kept interpreter: no state, no items, no step observer', async () => {
    await runLoopToEnd({ prompt: SECRET, config: resolveConfig({ sessionId: 'kept' }), tools: [echo], deps: { callModel: caller() }, onStep: () => undefined });
    const kept = keptInstanceOf(Interpreter) as Interpreter;
    expect(kept.done).toBe(true);
    expect(kept.currentState).toBeNull();
    expect(kept.takeItems()).toEqual([]);
    expect((kept as unknown as { onStep: unknown }).onStep).toBeUndefined();
  });

  it('is replaced by the next instance of its class', () => {
    const first = new LazyAbortController();
    expect(keptInstanceOf(LazyAbortController)).toBe(first);
    const second = new LazyAbortController();
    expect(keptInstanceOf(LazyAbortController)).toBe(second);
  });
});

describe('what a kept interpreter lets go of at its run\'s end', () => {
  // A run without tool calls: the kept streaming executor (which holds its turn's tool deps and calls until the next
  // one replaces it, docs/architecture.md) is not this run's, so only the interpreter could hold the caller's data.
  const textOnly: ModelCaller = async function* (request) {
    const message: AssistantMessage = { type: 'assistant', uuid: 'm1', message: { id: 'm1', role: 'assistant', model: request.model, content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', stopReason: 'end_turn' } };
  };

  it('the caller\'s options, deps and tools become unreachable once the caller drops them', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const refs = await (async () => {
      const deps = { callModel: async function* (...args: Parameters<ModelCaller>) { yield* textOnly(...args); } };
      const tools = [echo];
      const options = { prompt: SECRET, config: resolveConfig({ sessionId: 'kept' }), tools, deps, onStep: () => undefined };
      const { terminal } = await runLoopToEnd(options);
      expect(terminal.reason).toBe('completed');
      return { options: new WeakRef(options), deps: new WeakRef(deps), callModel: new WeakRef(deps.callModel), tools: new WeakRef(tools) };
    })();
    expect(keptInstanceOf(Interpreter)).toBeInstanceOf(Interpreter);
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    for (const [name, ref] of Object.entries(refs)) expect.soft(ref.deref(), name).toBeUndefined();
  });

});
