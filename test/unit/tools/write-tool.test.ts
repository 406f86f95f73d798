/** The Write tool: creates or replaces a file of the root, never writes outside it. */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, existsSync } from 'node:fs';
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

  it('does not follow a symlink at the file path', async () => {
    const root = mkdtempSync(join(tmpdir(), 'write-tool-'));
    const outside = mkdtempSync(join(tmpdir(), 'write-outside-'));
    mkdirSync(join(root, 'd'));
    symlinkSync(join(outside, 'target.txt'), join(root, 'd', 'file.txt'));
    await expect(createWriteTool(root).call({ file_path: 'd/file.txt', content: 'x' }, ctx)).rejects.toThrow(/outside/);
    expect(existsSync(join(outside, 'target.txt'))).toBe(false);
  });
});
