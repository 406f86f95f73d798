import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../../src/tools/define-tool.ts';
import { runToolUse, runToolUseWithStatus } from '../../../src/tools/run-tool-use.ts';
import type { ToolCallDeps } from '../../../src/tools/call-deps.ts';
import { deferred, isErrorResult, resultText, depsFor, toolUse } from './fixtures.ts';

const scope = () => ({ signal: new AbortController().signal, context: {} });

const echo = defineTool({
  name: 'Echo',
  aliases: ['Say'],
  description: 'echo',
  inputSchema: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  validateInput: ({ text }) => (text === 'forbidden' ? { ok: false, message: 'text must not be "forbidden"' } : { ok: true }),
  call: ({ text, times = 1 }) => ({ content: text.repeat(times) }),
});

function run(tools: Tool[], use = toolUse('t1', 'Echo', { text: 'hi' }), extra: Partial<ToolCallDeps> = {}) {
  return runToolUse(use, depsFor(tools, extra), scope());
}

describe('one tool call produces exactly one tool_result event', () => {
  it('answers a successful call with a user message holding one tool_result for the id', async () => {
    const event = await run([echo]);
    expect(event).toEqual({
      type: 'tool_result',
      toolUseId: 't1',
      message: {
        type: 'user',
        uuid: 'u1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'hi' }] },
        sourceToolUseId: 't1',
      },
    });
  });

  it('finds a tool by alias', async () => {
    expect(resultText(await run([echo], toolUse('t1', 'Say', { text: 'yo' })))).toBe('yo');
  });

  it('answers an unknown tool with an error naming it', async () => {
    const event = await run([echo], toolUse('t1', 'Nope'));
    expect(isErrorResult(event)).toBe(true);
    expect(resultText(event)).toContain('"Nope"');
    expect(resultText(event)).toContain('Echo');
  });

  it('answers an already aborted call with a cancelled result, without running it', async () => {
    const call = vi.fn(() => ({ content: 'ran' }));
    const tool = defineTool({ name: 'T', description: '', inputSchema: z.object({}), call });
    const controller = new AbortController();
    controller.abort('user');
    const outcome = await runToolUseWithStatus(toolUse('t1', 'T'), depsFor([tool]), { signal: controller.signal, context: {} });
    expect(outcome.status).toBe('cancelled');
    expect(resultText(outcome.event)).toMatch(/cancelled/i);
    expect(call).not.toHaveBeenCalled();
  });

  it('explains a schema failure with the field path and the expectation', async () => {
    const event = await run([echo], toolUse('t1', 'Echo', { times: 0 }));
    expect(isErrorResult(event)).toBe(true);
    const text = resultText(event);
    expect(text).toContain('input for Echo is invalid');
    expect(text).toMatch(/- text: required, expected string/);
    expect(text).toMatch(/- times: .*>=1/);
  });

  it('answers a failed validateInput with its message', async () => {
    const event = await run([echo], toolUse('t1', 'Echo', { text: 'forbidden' }));
    expect(isErrorResult(event)).toBe(true);
    expect(resultText(event)).toBe('Error: text must not be "forbidden"');
  });

  it('turns a throwing tool into an error result', async () => {
    const boom = defineTool({ name: 'Boom', description: '', inputSchema: z.object({}), call: () => Promise.reject(new Error('disk on fire')) });
    const outcome = await runToolUseWithStatus(toolUse('t1', 'Boom'), depsFor([boom]), scope());
    expect(outcome.status).toBe('error');
    expect(resultText(outcome.event)).toBe('Error: disk on fire');
  });

  it('turns a hanging tool into an error result after the timeout and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const hang = defineTool({
      name: 'Hang',
      description: '',
      inputSchema: z.object({}),
      call: (_input, ctx) => {
        seen = ctx.signal;
        return new Promise(() => {});
      },
    });
    const outcome = await runToolUseWithStatus(toolUse('t1', 'Hang'), depsFor([hang], { timeoutMs: 20 }), scope());
    expect(outcome.status).toBe('error');
    expect(resultText(outcome.event)).toBe('Tool Hang timed out after 20 ms; it had started, so part of its work may have been done.');
    expect(seen?.aborted).toBe(true);
  });

  it('uses the injected clock for the timeout', async () => {
    const tick = deferred();
    const hang = defineTool({ name: 'Hang', description: '', inputSchema: z.object({}), call: () => new Promise(() => {}) });
    const clock = { sleep: vi.fn(() => tick.promise) };
    const pending = runToolUse(toolUse('t1', 'Hang'), depsFor([hang], { timeoutMs: 5_000, clock }), scope());
    tick.resolve();
    expect(resultText(await pending)).toContain('timed out after 5000 ms');
    expect(clock.sleep).toHaveBeenCalledWith(5_000, expect.any(AbortSignal));
  });

  it('cancels a running call when its signal aborts', async () => {
    const controller = new AbortController();
    const hang = defineTool({ name: 'Hang', description: '', inputSchema: z.object({}), call: () => new Promise(() => {}) });
    const pending = runToolUseWithStatus(toolUse('t1', 'Hang'), depsFor([hang]), { signal: controller.signal, context: {} });
    controller.abort();
    const outcome = await pending;
    expect(outcome.status).toBe('cancelled');
    expect(isErrorResult(outcome.event)).toBe(true);
  });

  it('collects progress as extra messages and the final result of a streaming call', async () => {
    const slow = defineTool({
      name: 'Slow',
      description: '',
      inputSchema: z.object({}),
      async *call() {
        yield { type: 'progress', message: 'half way' };
        yield { type: 'result', result: { content: 'done' } };
      },
    });
    const event = await run([slow], toolUse('t1', 'Slow'));
    expect(resultText(event)).toBe('done');
    expect(event.extra).toEqual([
      expect.objectContaining({ type: 'system', subtype: 'info', content: 'half way', data: expect.objectContaining({ toolUseId: 't1' }) }),
    ]);
  });

  it('replaces empty output with a short note and passes the context modifier on', async () => {
    const quiet = defineTool({ name: 'Quiet', description: '', inputSchema: z.object({}), call: () => ({ content: '', contextModifier: { cwd: '/x' } }) });
    const event = await run([quiet], toolUse('t1', 'Quiet'));
    expect(resultText(event)).toBe('(Quiet finished with no output)');
    expect(event.contextPatch).toEqual({ cwd: '/x' });
  });

  it('marks prevent-continuation with a hook_stopped_continuation attachment', async () => {
    const stopper = defineTool({ name: 'Stop', description: '', inputSchema: z.object({}), call: () => ({ content: 'ok', preventContinuation: true }) });
    const event = await run([stopper], toolUse('t1', 'Stop'));
    expect(event.preventContinuation).toBe(true);
    expect(event.extra?.at(-1)).toMatchObject({ type: 'attachment', attachment: { type: 'hook_stopped_continuation', toolUseId: 't1' } });
  });
});

describe('the call duration is read only for post-tool hooks (round 14)', () => {
  it('reads no clock for a call without post-tool hooks', async () => {
    const now = vi.spyOn(performance, 'now');
    try {
      expect(resultText(await run([echo]))).toBe('hi');
      expect(now).not.toHaveBeenCalled();
    } finally {
      now.mockRestore();
    }
  });

  it('still gives post-tool hooks the duration of the call', async () => {
    let seen: number | undefined;
    const now = vi.spyOn(performance, 'now').mockReturnValueOnce(10).mockReturnValueOnce(25);
    try {
      await run([echo], undefined, { postToolHooks: [({ durationMs }) => void (seen = durationMs)] });
      expect(now).toHaveBeenCalledTimes(2);
      expect(seen).toBe(15);
    } finally {
      now.mockRestore();
    }
  });
});
