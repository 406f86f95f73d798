import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, type PermissionResult } from '../../../src/tools/define-tool.ts';
import { runToolUse } from '../../../src/tools/run-tool-use.ts';
import type { CanUseTool, PostToolHook, PreToolHook, ToolCallDeps } from '../../../src/tools/call-deps.ts';
import { isErrorResult, resultText, depsFor, toolUse } from './fixtures.ts';

function writeTool(toolDecision: PermissionResult = { behavior: 'allow' }) {
  const call = vi.fn(({ path }: { path: string }) => ({ content: `wrote ${path}` }));
  const tool = defineTool({
    name: 'Write',
    description: '',
    inputSchema: z.object({ path: z.string() }),
    checkPermissions: () => toolDecision,
    call,
  });
  return { tool, call };
}

async function run(extra: Partial<ToolCallDeps>, toolDecision?: PermissionResult, input: unknown = { path: 'a.txt' }) {
  const { tool, call } = writeTool(toolDecision);
  const event = await runToolUse(toolUse('t1', 'Write', input), depsFor([tool], extra), {
    signal: new AbortController().signal,
    context: {},
  });
  return { event, call };
}

describe('permission decision', () => {
  it('runs the tool when everyone allows', async () => {
    const { event, call } = await run({ canUseTool: () => ({ behavior: 'allow' }) });
    expect(resultText(event)).toBe('wrote a.txt');
    expect(call).toHaveBeenCalledOnce();
  });

  it('answers a denial by canUseTool with an error result carrying the reason', async () => {
    const { event, call } = await run({ canUseTool: () => ({ behavior: 'deny', message: 'read-only session' }) });
    expect(isErrorResult(event)).toBe(true);
    expect(resultText(event)).toBe('Permission to use Write was denied: read-only session');
    expect(call).not.toHaveBeenCalled();
  });

  it("answers a denial by the tool's own checkPermissions without asking canUseTool", async () => {
    const canUseTool = vi.fn<CanUseTool>(() => ({ behavior: 'allow' }));
    const { event } = await run({ canUseTool }, { behavior: 'deny', message: 'outside the project' });
    expect(resultText(event)).toContain('outside the project');
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('keeps a deny even when a pre-tool hook allows', async () => {
    const hook: PreToolHook = () => ({ decision: 'allow' });
    const { event, call } = await run({ preToolHooks: [hook], canUseTool: () => ({ behavior: 'deny', message: 'rule' }) });
    expect(isErrorResult(event)).toBe(true);
    expect(call).not.toHaveBeenCalled();
  });

  it('denies an ask that nobody settles, and lets a hook allow settle it', async () => {
    const ask: PermissionResult = { behavior: 'ask', message: 'confirm write' };
    expect(isErrorResult((await run({}, ask)).event)).toBe(true);
    const { event, call } = await run({ preToolHooks: [() => ({ decision: 'allow' })] }, ask);
    expect(resultText(event)).toBe('wrote a.txt');
    expect(call).toHaveBeenCalledOnce();
  });

  it('tells canUseTool what the tool and the hooks decided', async () => {
    const canUseTool = vi.fn<CanUseTool>(() => ({ behavior: 'allow' }));
    await run({ canUseTool, preToolHooks: [() => ({ decision: 'ask' })] }, { behavior: 'ask' });
    expect(canUseTool.mock.calls[0][2]).toMatchObject({ toolDecision: { behavior: 'ask' }, hookDecision: 'ask', toolUseId: 't1' });
  });

  it('uses permission-updated input after checking it against the schema', async () => {
    const { call } = await run({ canUseTool: () => ({ behavior: 'allow', updatedInput: { path: 'safe.txt' } }) });
    expect(call.mock.calls[0][0]).toEqual({ path: 'safe.txt' });
    const bad = await run({ canUseTool: () => ({ behavior: 'allow', updatedInput: { path: 1 } }) });
    expect(resultText(bad.event)).toContain('- path:');
  });

  it('answers a pre-tool hook deny with its reason', async () => {
    const { event } = await run({ preToolHooks: [() => ({ decision: 'deny', reason: 'hook says no' })] });
    expect(resultText(event)).toBe('Permission to use Write was denied: hook says no');
  });
});

describe('pre-tool hooks', () => {
  it('may change the input and add messages before the result', async () => {
    const hook: PreToolHook = ({ newId }) => ({
      updatedInput: { path: 'b.txt' },
      additionalContext: 'path rewritten',
      messages: [{ type: 'system', uuid: newId(), subtype: 'info', content: 'hook ran' }],
    });
    const { event } = await run({ preToolHooks: [hook] });
    expect(resultText(event)).toBe('wrote b.txt');
    expect(event.extra?.map((m) => m.type)).toEqual(['system', 'attachment']);
  });

  it('stop keeps the tool from running', async () => {
    const second = vi.fn();
    const { event, call } = await run({ preToolHooks: [() => ({ stop: true, stopReason: 'maintenance' }), second] });
    expect(resultText(event)).toContain('maintenance');
    expect(call).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();
  });

  it('preventContinuation lets the tool run and marks the event', async () => {
    const { event, call } = await run({ preToolHooks: [() => ({ preventContinuation: true, stopReason: 'enough' })] });
    expect(call).toHaveBeenCalledOnce();
    expect(event.preventContinuation).toBe(true);
    expect(event.extra).toContainEqual(
      expect.objectContaining({ attachment: { type: 'hook_stopped_continuation', message: 'enough', toolUseId: 't1' } }),
    );
  });

  it('a throwing pre-tool hook becomes an error result', async () => {
    const { event, call } = await run({ preToolHooks: [() => { throw new Error('bad hook'); }] });
    expect(resultText(event)).toBe('Error: a pre-tool hook failed: bad hook');
    expect(call).not.toHaveBeenCalled();
  });
});

describe('post-tool hooks', () => {
  it('a blocking error becomes a hook_blocking_error attachment; the result stays', async () => {
    const hook: PostToolHook = ({ result }) => ({ blockingError: `lint failed after ${String(result.content)}` });
    const { event } = await run({ postToolHooks: [hook] });
    expect(resultText(event)).toBe('wrote a.txt');
    expect(event.extra).toEqual([
      expect.objectContaining({ type: 'attachment', attachment: { type: 'hook_blocking_error', message: 'lint failed after wrote a.txt', toolUseId: 't1' } }),
    ]);
  });

  it('may prevent continuation', async () => {
    const { event } = await run({ postToolHooks: [() => ({ preventContinuation: true })] });
    expect(event.preventContinuation).toBe(true);
  });

  it('a throwing post-tool hook keeps the result and adds a warning', async () => {
    const { event } = await run({ postToolHooks: [() => { throw new Error('oops'); }] });
    expect(isErrorResult(event)).toBe(false);
    expect(event.extra).toEqual([expect.objectContaining({ type: 'system', subtype: 'warning' })]);
  });
});
