/**
 * Closing `runLoop()` early or aborting its signal cancels in-flight work, and the run still ends in a terminal
 * whose history answers every tool_use exactly once (docs/loop.md §7.5-7.6, §9.9).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { runLoop } from '../../../src/drivers/run-loop.ts';
import type { StepObserver } from '../../../src/runtime/query-options.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { defineTool } from '../../../src/tools/index.ts';
import type { Message } from '../../../src/messages/types.ts';
import type { LoopState } from '../../../src/data/state.ts';

/** A model that always asks for two slow tools. */
const askForTools: ModelCaller = async function* (request, options) {
  yield {
    kind: 'event',
    event: {
      type: 'model_message',
      message: {
        type: 'assistant',
        uuid: options.newId(),
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: request.model,
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'slow', input: {} },
            { type: 'tool_use', id: 'toolu_b', name: 'slow', input: {} },
          ],
          stop_reason: 'tool_use',
        },
      },
    },
  };
  yield { kind: 'event', event: { type: 'model_done', usage: { input_tokens: 5, output_tokens: 5 } } };
};

function slowTool(started: AbortSignal[]) {
  return defineTool({
    name: 'slow',
    description: 'waits until cancelled',
    inputSchema: z.object({}),
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    call: (_input, ctx) =>
      new Promise((resolve) => {
        started.push(ctx.signal);
        ctx.signal.addEventListener('abort', () => resolve({ content: 'stopped', isError: true }), { once: true });
      }),
  });
}

function toolResultIds(messages: Message[]): string[] {
  return messages.flatMap((m) =>
    m.type === 'user' && Array.isArray(m.message.content)
      ? m.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))
      : [],
  );
}

function recordLastState(): { observer: StepObserver; last: () => LoopState | null } {
  let last: LoopState | null = null;
  return { observer: ({ state }) => void (last = state), last: () => last };
}

describe('runLoop() cancellation', () => {
  it('return() while tools run cancels them and still answers every tool_use once', async () => {
    const started: AbortSignal[] = [];
    const { observer, last } = recordLastState();
    const run = runLoop({
      prompt: 'go',
      tools: [slowTool(started)],
      onStep: observer,
      deps: { callModel: askForTools, clock: virtualClock(), newId: counterIds('c') },
    });
    const emitted: Message[] = [];
    for await (const item of run) {
      if (item.type !== 'stream_event' && item.type !== 'request_start') emitted.push(item);
      // The tool_use arrived (the streaming executor may already run the tools): close the generator.
      if (item.type === 'assistant') break;
    }
    // The streaming executor had started both tools when the assistant message was yielded; both were cancelled.
    expect(started).toHaveLength(2);
    expect(started.every((signal) => signal.aborted)).toBe(true);
    const final = last() as LoopState;
    expect(final.status).toBe('done');
    expect(final.context.terminal?.reason).toMatch(/^aborted_/);
    const answered = toolResultIds([...final.context.messages, ...final.context.iter.toolResults]);
    expect(answered.sort()).toEqual(['toolu_a', 'toolu_b']);
  });

  it('aborting the signal with reason "interrupt" ends in aborted_tools without the "interrupted" message', async () => {
    const started: AbortSignal[] = [];
    const controller = new AbortController();
    const run = runLoop({
      prompt: 'go',
      tools: [slowTool(started)],
      signal: controller.signal,
      deps: { callModel: askForTools, clock: virtualClock(), newId: counterIds('i') },
    });
    const items: Message[] = [];
    let next = await run.next();
    while (!next.done) {
      const item = next.value;
      if (item.type !== 'stream_event' && item.type !== 'request_start') items.push(item);
      if (item.type === 'assistant' && !controller.signal.aborted) controller.abort('interrupt');
      next = await run.next();
    }
    expect(next.value.reason).toMatch(/^aborted_(tools|streaming)$/);
    const results = toolResultIds(items);
    expect(results.sort()).toEqual(['toolu_a', 'toolu_b']);
    const interrupted = items.filter((m) => m.type === 'user' && typeof m.message.content === 'string');
    expect(interrupted).toEqual([]);
  });
});
