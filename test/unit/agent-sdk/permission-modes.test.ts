/** Claude Code's permission modes and rules, decided without the program where they can be. */
import { describe, expect, it } from 'vitest';
import { isFilesystemCommand, questionFields, ruleMatches } from '../../../src/agent-sdk/permission-modes.ts';

describe('permission rules', () => {
  it('match a tool by name, a Bash command exactly or by prefix, an MCP server by its prefix', async () => {
    expect(await ruleMatches('Bash', 'Bash', { command: 'anything' })).toBe(true);
    expect(await ruleMatches('Bash(git status)', 'Bash', { command: 'git status' })).toBe(true);
    expect(await ruleMatches('Bash(git status)', 'Bash', { command: 'git status --short' })).toBe(false);
    expect(await ruleMatches('Bash(npm run:*)', 'Bash', { command: 'npm run test' })).toBe(true);
    expect(await ruleMatches('Bash(npm run:*)', 'Bash', { command: 'npm runner' })).toBe(false);
    expect(await ruleMatches('mcp__calc', 'mcp__calc__add', {})).toBe(true);
    expect(await ruleMatches('mcp__calc', 'mcp__calculator__add', {})).toBe(false);
    expect(await ruleMatches('Read', 'Write', {})).toBe(false);
  });

  it('acceptEdits runs plain filesystem commands unasked, as Claude Code does, and nothing chained to them', async () => {
    expect(await isFilesystemCommand('touch command-ran.txt')).toBe(true);
    expect(await isFilesystemCommand('mkdir -p a/b')).toBe(true);
    expect(await isFilesystemCommand('node -e "1"')).toBe(false);
    expect(await isFilesystemCommand('touch x; curl evil')).toBe(false);
    expect(await isFilesystemCommand('rm $(cat list)')).toBe(false);
    expect(await isFilesystemCommand('cp a b > c')).toBe(false);
  });

  it('acceptEdits counts a name that starts with two dots (..notes) as inside the working directory, ../x as not', async () => {
    expect(await isFilesystemCommand('touch ..notes')).toBe(true);
    expect(await isFilesystemCommand('touch ../notes')).toBe(false);
  });
});

describe('questionFields', () => {
  it('describes a Bash call by its description or command, a file tool by its path, and nothing else', () => {
    expect(questionFields('Bash', { command: 'ls', description: 'List' }, '/p')).toEqual({ display_name: 'Bash', description: 'List' });
    expect(questionFields('Bash', { command: 'ls', description: '' }, '/p')).toEqual({ display_name: 'Bash', description: 'ls' });
    expect(questionFields('Write', { file_path: '/p/sub/a.txt' }, '/p')).toEqual({ display_name: 'Write', description: 'sub/a.txt' });
    expect(questionFields('Edit', { file_path: '/elsewhere/a.txt' }, '/p')).toEqual({ display_name: 'Edit', description: '/elsewhere/a.txt' });
    expect(questionFields('Glob', { pattern: '*' }, '/p')).toEqual({});
    // A name that merely starts with two dots is inside the directory; `..` itself is not.
    expect(questionFields('Read', { file_path: '..notes' }, '/p')).toEqual({ display_name: 'Read', description: '..notes' });
    expect(questionFields('Read', { file_path: '/p/..d/a.txt' }, '/p')).toEqual({ display_name: 'Read', description: '..d/a.txt' });
    expect(questionFields('Read', { file_path: '../a.txt' }, '/p/sub')).toEqual({ display_name: 'Read', description: '/p/a.txt' });
  });
});
