/** The Write tool: creates or replaces a file of the root, never writes outside it. */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCallResult, ToolContext } from '../../../src/tools/define-tool.ts';
import { createWriteTool } from '../../../src/tools/builtin/write.ts';

const ctx: ToolContext = { toolUseId: 't', idempotencyKey: 't', signal: new AbortController().signal, context: {} };

describe('Write tool', () => {
  it('creates a file and its missing directories, then replaces it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-tool-'));
    const tool = createWriteTool(root);
    const created = (await tool.call({ file_path: 'a/b/c.txt', content: 'one' }, ctx)) as ToolCallResult;
    expect(created.content).toBe('File created successfully at: a/b/c.txt');
    expect(readFileSync(join(root, 'a/b/c.txt'), 'utf8')).toBe('one');
    const updated = (await tool.call({ file_path: join(root, 'a/b/c.txt'), content: 'two' }, ctx)) as ToolCallResult;
    expect(updated.content).toBe('The file a/b/c.txt has been updated.');
    expect(readFileSync(join(root, 'a/b/c.txt'), 'utf8')).toBe('two');
  });

  it('refuses paths outside the root, through .. or a symlinked directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-tool-'));
    const outside = mkdtempSync(join(tmpdir(), 'write-outside-'));
    symlinkSync(outside, join(root, 'link'));
    const tool = createWriteTool(root);
    await expect(tool.call({ file_path: '../escape.txt', content: 'x' }, ctx)).rejects.toThrow(/outside/);
    await expect(tool.call({ file_path: 'link/escape.txt', content: 'x' }, ctx)).rejects.toThrow(/outside/);
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
  });

  it('does not follow a symlink at the file path: refuses it as claude 2.1.334 does, saying where it points', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-tool-'));
    const outside = mkdtempSync(join(tmpdir(), 'write-outside-'));
    mkdirSync(join(root, 'd'));
    symlinkSync(join(outside, 'target.txt'), join(root, 'd', 'file.txt'));
    const out = (await createWriteTool(root).call({ file_path: 'd/file.txt', content: 'x' }, ctx)) as ToolCallResult;
    expect(out).toEqual({ content: `Refusing to write d/file.txt: it is a symbolic link. Its target, ${join(outside, 'target.txt')}, is outside the allowed directory.`, isError: true });
    expect(existsSync(join(outside, 'target.txt'))).toBe(false);
  });

  it('a symlink to a file inside the root is refused with the target to write instead (not as outside the root)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-tool-'));
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'real.txt'), 'old');
    symlinkSync('real.txt', join(root, 'd', 'link.txt'));
    symlinkSync(join(root, 'd', 'missing.txt'), join(root, 'dangling.txt'));
    const tool = createWriteTool(root);
    expect(await tool.call({ file_path: 'd/link.txt', content: 'new' }, ctx)).toEqual({
      content: "Refusing to write d/link.txt: it is a symbolic link. Write to the link's target path instead: d/real.txt.",
      isError: true,
    });
    expect(await tool.call({ file_path: 'dangling.txt', content: 'new' }, ctx)).toEqual({
      content: "Refusing to write dangling.txt: it is a symbolic link. Write to the link's target path instead: d/missing.txt.",
      isError: true,
    });
    expect(readFileSync(join(root, 'd', 'real.txt'), 'utf8')).toBe('old');
    expect(existsSync(join(root, 'd', 'missing.txt'))).toBe(false);
    expect(lstatSync(join(root, 'd', 'link.txt')).isSymbolicLink()).toBe(true);
    // The target named is the one to use.
    expect(((await tool.call({ file_path: 'd/real.txt', content: 'new' }, ctx)) as ToolCallResult).content).toBe('The file d/real.txt has been updated.');
  });
});
