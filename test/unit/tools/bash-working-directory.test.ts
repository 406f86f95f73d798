/**
 * The Bash tool keeps its working directory across calls, as Claude Code's does (claude 2.1.334 side by side:
 * test/agent-sdk/programs/parity-bash-cwd.ts): a `cd` inside the root or an allowed directory is kept, a `cd` out
 * of them is undone with claude's words, and a command that fails (exits non-zero) leaves the shell where it was.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCallResult, ToolContext } from '../../../src/tools/define-tool.ts';
import { createBashTool } from '../../../src/tools/builtin/bash.ts';

const context: ToolContext = { toolUseId: 'toolu_1', idempotencyKey: 'toolu_1', signal: new AbortController().signal, context: {} };
const run = async (tool: ReturnType<typeof createBashTool>, command: string) => (await tool.call({ command }, context)) as ToolCallResult;

function project(): { root: string; shared: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'bash-cwd-')));
  const root = join(base, 'project');
  const shared = join(base, 'shared');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(shared);
  writeFileSync(join(root, 'sub', 'here.txt'), 'in sub\n');
  writeFileSync(join(root, 'top.txt'), 'at the top\n');
  return { root, shared };
}

describe('Bash working directory', () => {
  it('a cd into a subdirectory is where the next call starts', async () => {
    const { root } = project();
    const bash = createBashTool({ root });
    expect((await run(bash, 'cd sub && pwd')).content).toBe(join(root, 'sub'));
    expect((await run(bash, 'pwd && cat here.txt')).content).toBe(`${join(root, 'sub')}\nin sub`);
    expect(bash.workingDirectory()).toBe(join(root, 'sub'));
  });

  it('a subdirectory whose name starts with two dots is inside the root (kept), `..` is not', async () => {
    const { root } = project();
    mkdirSync(join(root, '..cache'));
    const bash = createBashTool({ root });
    expect((await run(bash, 'cd ..cache && pwd')).content).toBe(join(root, '..cache'));
    expect(bash.workingDirectory()).toBe(join(root, '..cache'));
    expect((await run(bash, `cd ${root} && cd .. && pwd`)).content).toBe(`${join(root, '..')}\nShell cwd was reset to ${root}`);
  });

  it('a cd out of the root and the allowed directories is undone, and the result says so in claude\'s words', async () => {
    const { root } = project();
    const bash = createBashTool({ root });
    await run(bash, 'cd sub');
    expect((await run(bash, 'cd / && pwd')).content).toBe(`/\nShell cwd was reset to ${root}`);
    expect((await run(bash, 'pwd && cat top.txt')).content).toBe(`${root}\nat the top`);
    expect(bash.workingDirectory()).toBe(root);
  });

  it('an allowed directory outside the root is kept; a command that fails or exits non-zero moves nothing (claude 2.1.334)', async () => {
    const { root, shared } = project();
    const bash = createBashTool({ root, allowedDirectories: [shared] });
    expect((await run(bash, `cd ${shared}; exit 3`))).toMatchObject({ isError: true, content: 'Exit code 3' });
    expect((await run(bash, 'pwd')).content).toBe(root);
    expect((await run(bash, `cd ${shared} && pwd`)).content).toBe(shared);
    expect((await run(bash, 'cd ../project/sub && false')).isError).toBe(true);
    expect(bash.workingDirectory()).toBe(shared);
    expect((await run(bash, 'cd / ; false')).content).toBe('Exit code 1');
    expect(bash.workingDirectory()).toBe(shared);
  });

  it('a shell ended by exit keeps no cd, even exit 0; syntax errors, set -u and a trap of the command\'s own change nothing (claude 2.1.334)', async () => {
    const { root } = project();
    const bash = createBashTool({ root });
    expect((await run(bash, 'cd sub; exit 0')).isError).not.toBe(true);
    expect(bash.workingDirectory()).toBe(root);
    expect((await run(bash, 'cd sub && exit')).isError).not.toBe(true);
    expect(bash.workingDirectory()).toBe(root);
    // The exit status is the command's; a command that is not complete is a syntax error, not completed by us.
    expect((await run(bash, 'cd sub && (exit 4)')).content).toBe('Exit code 4');
    expect((await run(bash, 'cd sub &&')).isError).toBe(true);
    expect(bash.workingDirectory()).toBe(root);
    expect((await run(bash, 'echo a \\')).content).toBe('a \\');
    expect((await run(bash, "set -u; trap 'echo bye' EXIT; cd sub; echo \"$0 $#\"")).content).toMatch(/ 0\nbye$/);
    expect(bash.workingDirectory()).toBe(join(root, 'sub'));
  });

  it('a shell that follows another starts each call where that one is and keeps no cd of its own', async () => {
    const { root } = project();
    const main = createBashTool({ root });
    const follower = createBashTool({ root, follow: () => main.workingDirectory() });
    await run(main, 'cd sub');
    expect((await run(follower, 'pwd')).content).toBe(join(root, 'sub'));
    expect((await run(follower, 'cd .. && pwd')).content).toBe(root);
    expect(follower.workingDirectory()).toBe(join(root, 'sub'));
    expect((await run(follower, 'pwd')).content).toBe(join(root, 'sub'));
    expect(main.workingDirectory()).toBe(join(root, 'sub'));
  });

  it('a directory removed after the shell ended in it sends the next call to the root', async () => {
    const { root } = project();
    const bash = createBashTool({ root });
    await run(bash, 'mkdir -p gone && cd gone');
    await run(bash, `rm -rf ${join(root, 'gone')}`);
    expect(await run(bash, 'pwd')).toMatchObject({ content: root });
  });

  it('each tool has its own directory', async () => {
    const { root } = project();
    const first = createBashTool({ root });
    await run(first, 'cd sub');
    expect((await run(createBashTool({ root }), 'pwd')).content).toBe(root);
  });
});
