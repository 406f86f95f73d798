/**
 * `--add-dir` (the SDK's `additionalDirectories`): the file tools work in each added directory as in the working
 * directory, as the real executable's do; before, turnloop listed the directories in `init` and its tools refused
 * every path in them (found by test/agent-sdk's public "additionalDirectories" program).
 */
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { selectSdkTools } from '../../../src/agent-sdk/sdk-tools.ts';
import type { Tool, ToolCallResult, ToolContext } from '../../../src/tools/define-tool.ts';

const ctx: ToolContext = { toolUseId: 't', idempotencyKey: 't', signal: new AbortController().signal, context: {} };

function setUp() {
  const root = mkdtempSync(join(tmpdir(), 'add-dir-cwd-'));
  const added = mkdtempSync(join(tmpdir(), 'add-dir-added-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'add-dir-elsewhere-'));
  const { tools } = selectSdkTools({ root, additionalDirectories: [added], disallowedTools: [] });
  const tool = (name: string) => tools.find((t) => t.name === name) as Tool;
  return { root, added, elsewhere, tool };
}

it('Read, Write, Edit, Glob and Grep work in an added directory, by absolute path', async () => {
  const { added, tool } = setUp();
  writeFileSync(join(added, 'defaults.config'), 'port=80\n');
  const read = (await tool('Read').call({ file_path: join(added, 'defaults.config') }, ctx)) as ToolCallResult;
  expect(read.isError ?? false).toBe(false);
  expect(read.content).toContain('port=80');
  await tool('Write').call({ file_path: join(added, 'out/MIGRATED'), content: 'yes\n' }, ctx);
  expect(readFileSync(join(added, 'out/MIGRATED'), 'utf8')).toBe('yes\n');
  await tool('Edit').call({ file_path: join(added, 'defaults.config'), old_string: 'port=80', new_string: 'port=81' }, ctx);
  expect(readFileSync(join(added, 'defaults.config'), 'utf8')).toBe('port=81\n');
  expect(((await tool('Glob').call({ pattern: '**/MIGRATED', path: added }, ctx)) as ToolCallResult).content).toContain('MIGRATED');
  expect(((await tool('Grep').call({ pattern: 'port', path: added }, ctx)) as ToolCallResult).content).toContain('defaults.config');
});

it('the working directory is still the root of relative paths, and other directories stay closed', async () => {
  const { root, added, elsewhere, tool } = setUp();
  await tool('Write').call({ file_path: 'here.txt', content: 'h' }, ctx);
  expect(existsSync(join(root, 'here.txt'))).toBe(true);
  expect(existsSync(join(added, 'here.txt'))).toBe(false);
  await expect(tool('Write').call({ file_path: join(elsewhere, 'x.txt'), content: 'x' }, ctx)).rejects.toThrow(/outside/);
  // A symlink inside the added directory does not lead out of it.
  symlinkSync(elsewhere, join(added, 'link'));
  await expect(tool('Write').call({ file_path: join(added, 'link/x.txt'), content: 'x' }, ctx)).rejects.toThrow(/outside/);
  expect(existsSync(join(elsewhere, 'x.txt'))).toBe(false);
});
