import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/tools/registry.ts';
import { runToolUse } from '../../../src/tools/run-tool-use.ts';
import { createFileTools } from '../../../src/tools/builtin/index.ts';
import { idGenerator, isErrorResult, resultText, toolUse } from './fixtures.ts';

let sandbox: string;
let root: string;

beforeEach(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), 'turnloop-tools-'));
  root = path.join(sandbox, 'root');
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true });
  await writeFile(path.join(root, 'src', 'a.ts'), 'const a = 1;\nexport { a };\n');
  await writeFile(path.join(root, 'src', 'deep', 'b.ts'), 'export const b = "TODO";\n');
  await writeFile(path.join(root, 'notes.md'), 'line one\nTODO: write more\nline three\n');
  await writeFile(path.join(sandbox, 'secret.txt'), 'top secret TODO\n');
});

afterEach(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

async function call(name: string, input: unknown) {
  const deps = { registry: createToolRegistry(createFileTools({ root })), newId: idGenerator() };
  return runToolUse(toolUse('t1', name, input), deps, { signal: new AbortController().signal, context: {} });
}

describe('file tools: declared behaviour', () => {
  it('Read, Glob and Grep are read-only and concurrency-safe; Edit is neither', () => {
    const registry = createToolRegistry(createFileTools({ root: '/tmp' }));
    for (const name of ['Read', 'Glob', 'Grep']) {
      const tool = registry.find(name)!;
      const input = name === 'Read' ? { file_path: 'x' } : { pattern: 'x' };
      expect([tool.isReadOnly(input), tool.isConcurrencySafe(input)]).toEqual([true, true]);
    }
    const edit = registry.find('Edit')!;
    const input = { file_path: 'x', old_string: 'a', new_string: 'b' };
    expect([edit.isReadOnly(input), edit.isConcurrencySafe(input)]).toEqual([false, false]);
  });
});

describe('Read', () => {
  it('returns the file with line numbers', async () => {
    expect(resultText(await call('Read', { file_path: 'notes.md' }))).toBe('     1\tline one\n     2\tTODO: write more\n     3\tline three');
  });

  it('honours offset and limit, and says what is left', async () => {
    const text = resultText(await call('Read', { file_path: 'notes.md', offset: 2, limit: 1 }));
    expect(text).toBe('     2\tTODO: write more\n(1 more lines; read on with offset 3)');
  });

  it('accepts an absolute path inside the root', async () => {
    expect(resultText(await call('Read', { file_path: path.join(root, 'src', 'a.ts') }))).toContain('const a = 1;');
  });

  it('reports a missing file as an error', async () => {
    const event = await call('Read', { file_path: 'nope.txt' });
    expect(isErrorResult(event)).toBe(true);
    expect(resultText(event)).toContain('No such file');
  });
});

describe('Edit', () => {
  it('replaces a unique occurrence', async () => {
    const event = await call('Edit', { file_path: 'src/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' });
    expect(isErrorResult(event)).toBe(false);
    expect(await readFile(path.join(root, 'src', 'a.ts'), 'utf8')).toBe('const a = 2;\nexport { a };\n');
  });

  it('refuses when old_string is missing or not unique, leaving the file alone', async () => {
    const missing = await call('Edit', { file_path: 'notes.md', old_string: 'absent', new_string: 'x' });
    expect(resultText(missing)).toContain('not found');
    const twice = await call('Edit', { file_path: 'notes.md', old_string: 'line', new_string: 'row' });
    expect(resultText(twice)).toContain('more than once');
    expect([missing, twice].every(isErrorResult)).toBe(true);
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('line one\nTODO: write more\nline three\n');
  });
});

describe('Glob', () => {
  it('lists matching files relative to the root, sorted', async () => {
    expect(resultText(await call('Glob', { pattern: '**/*.ts' }))).toBe('src/a.ts\nsrc/deep/b.ts');
    expect(resultText(await call('Glob', { pattern: '*.{md,txt}' }))).toBe('notes.md');
    expect(resultText(await call('Glob', { pattern: '*.ts', path: 'src' }))).toBe('src/a.ts');
  });
});

describe('Grep', () => {
  it('answers path:line: text for each match', async () => {
    expect(resultText(await call('Grep', { pattern: 'TODO' }))).toBe('notes.md:2: TODO: write more\nsrc/deep/b.ts:1: export const b = "TODO";');
    expect(resultText(await call('Grep', { pattern: 'todo', ignore_case: true, glob: '**/*.ts' }))).toBe(
      'src/deep/b.ts:1: export const b = "TODO";',
    );
  });

  it('rejects an invalid regular expression', async () => {
    const event = await call('Grep', { pattern: '(' });
    expect(isErrorResult(event)).toBe(true);
    expect(resultText(event)).toContain('not a valid regular expression');
  });
});

describe('confinement to the root', () => {
  /** One call per tool aimed at a file and a directory outside the root. */
  const escapes = (file: string, dir: string) =>
    [
      ['Read', { file_path: file }],
      ['Edit', { file_path: file, old_string: 'top', new_string: 'x' }],
      ['Glob', { pattern: '*', path: dir }],
      ['Grep', { pattern: 'TODO', path: file }],
      ['Grep', { pattern: 'TODO', path: dir }],
    ] as const;

  it('rejects a path escaping with ..', async () => {
    for (const [name, input] of escapes('../secret.txt', '..')) {
      const event = await call(name, input);
      expect(isErrorResult(event), name).toBe(true);
      expect(resultText(event), name).toContain('outside the allowed directory');
    }
  });

  it('rejects an absolute path outside the root', async () => {
    for (const [name, input] of escapes(path.join(sandbox, 'secret.txt'), sandbox)) {
      expect(resultText(await call(name, input)), name).toContain('outside the allowed directory');
    }
  });

  it('rejects a symlink pointing outside the root, and leaves it out of walks', async () => {
    await symlink(path.join(sandbox, 'secret.txt'), path.join(root, 'link.txt'));
    await symlink(sandbox, path.join(root, 'linkdir'));
    for (const [name, input] of [...escapes('link.txt', 'linkdir'), ...escapes('linkdir/secret.txt', 'linkdir/.')]) {
      expect(resultText(await call(name, input)), name).toContain('outside the allowed directory');
    }
    expect(resultText(await call('Grep', { pattern: 'secret' }))).toContain('No matches');
    expect(resultText(await call('Glob', { pattern: '**' }))).not.toContain('link');
    expect(await readFile(path.join(sandbox, 'secret.txt'), 'utf8')).toBe('top secret TODO\n');
  });

  it('follows a symlink that stays inside the root', async () => {
    await symlink(path.join(root, 'notes.md'), path.join(root, 'alias.md'));
    expect(resultText(await call('Read', { file_path: 'alias.md', limit: 1 }))).toContain('line one');
  });
});
