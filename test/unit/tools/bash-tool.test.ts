/** The Bash tool: runs in the root, reports exit codes, and a command that never ends or floods cannot hold the loop. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCallResult, ToolContext } from '../../../src/tools/define-tool.ts';
import { createBashTool } from '../../../src/tools/builtin/bash.ts';
import { runToolUse } from '../../../src/tools/run-tool-use.ts';
import { depsFor, isErrorResult, resultText, toolUse } from './fixtures.ts';

function context(signal = new AbortController().signal): ToolContext {
  return { toolUseId: 'toolu_1', idempotencyKey: 'toolu_1', signal, context: {} };
}

async function call(tool: ReturnType<typeof createBashTool>, input: { command: string; timeout?: number }, signal?: AbortSignal): Promise<ToolCallResult> {
  return (await tool.call(input, context(signal))) as ToolCallResult;
}

/** Running (a killed process that nobody reaped yet is a zombie, state Z: not running). */
const pidRunning = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
};

describe('Bash tool', () => {
  it('runs the command in the root and returns its output', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const result = await call(createBashTool({ root }), { command: 'pwd && echo out && echo err >&2' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain(root.split('/').at(-1));
    expect(result.content).toContain('out');
    expect(result.content).toContain('err');
  });

  it('a command with no output is the runtime\'s empty result naming Bash, as every tool\'s (claude words it the same way for every tool)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const event = await runToolUse(toolUse('toolu_1', 'Bash', { command: 'true' }), depsFor([createBashTool({ root })]), { signal: new AbortController().signal, context: {} });
    expect(resultText(event)).toBe('(Bash finished with no output)');
    expect(isErrorResult(event)).toBe(false);
  });

  it('a non-zero exit is an error result naming the exit code', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const result = await call(createBashTool({ root }), { command: 'echo nope; exit 3' });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toMatch(/^Exit code 3\nnope/);
  });

  it('is never read-only and is shell-like', () => {
    const tool = createBashTool({ root: tmpdir() });
    expect(tool.isReadOnly({ command: 'ls' })).toBe(false);
    expect(tool.isShellLike).toBe(true);
  });

  it('a command that never ends is killed with its whole process group at the timeout', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const started = Date.now();
    // The background child writes its pid, then sleeps; it must die with the group.
    const result = await call(createBashTool({ root }), { command: 'sleep 30 & echo $! > child.pid; sleep 30', timeout: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('timed out after 300 ms');
    const childPid = Number(readFileSync(join(root, 'child.pid'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pidRunning(childPid)).toBe(false);
  });

  it('aborting the call kills the process group at once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const controller = new AbortController();
    setTimeout(() => controller.abort('user'), 200);
    const started = Date.now();
    const result = await call(createBashTool({ root }), { command: 'sleep 30' }, controller.signal);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.content).toContain('aborted');
  });

  it('output that floods is capped and the command still finishes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const result = await call(createBashTool({ root, maxOutputChars: 1_000 }), { command: 'head -c 5000000 /dev/zero | tr "\\0" x' });
    expect(typeof result.content).toBe('string');
    const text = result.content as string;
    expect(text.length).toBeLessThan(1_200);
    expect(text).toMatch(/4999000 characters of output truncated/);
  });

  it('an endless flood is stopped by the timeout with bounded output', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bash-tool-'));
    const result = await call(createBashTool({ root, maxOutputChars: 500 }), { command: 'yes', timeout: 400 });
    expect(result.isError).toBe(true);
    expect((result.content as string).length).toBeLessThan(1_000);
    expect(existsSync(root)).toBe(true);
  });
});
