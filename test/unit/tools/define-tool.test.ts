import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolDefinitionForModel } from '../../../src/tools/define-tool.ts';
import { createToolRegistry, DuplicateToolNameError } from '../../../src/tools/registry.ts';
import { toolUse } from './fixtures.ts';

const base = { description: 'd', inputSchema: z.object({ cmd: z.string() }), call: () => ({ content: '' }) };

describe('defineTool defaults (docs/loop.md §7.1)', () => {
  it('fills in the defaults', async () => {
    const tool = defineTool({ name: 'T', ...base });
    expect(tool.interruptBehavior).toBe('block');
    expect(tool.isShellLike).toBe(false);
    expect(tool.maxResultSizeChars).toBe(50_000);
    expect(tool.aliases).toEqual([]);
    expect(tool.isConcurrencySafe({ cmd: 'ls' })).toBe(false);
    expect(tool.isReadOnly({ cmd: 'ls' })).toBe(false);
    const ctx = { toolUseId: 't', idempotencyKey: 't', signal: new AbortController().signal, context: {} };
    expect(await tool.validateInput({ cmd: 'ls' }, ctx)).toEqual({ ok: true });
    expect(await tool.checkPermissions({ cmd: 'ls' }, ctx)).toEqual({ behavior: 'allow' });
  });

  it('isConcurrencySafe answers false for invalid input or a throwing predicate', () => {
    const tool = defineTool({
      name: 'T',
      ...base,
      isConcurrencySafe: ({ cmd }) => {
        if (cmd === 'boom') throw new Error('x');
        return cmd.startsWith('ls');
      },
    });
    expect(tool.isConcurrencySafe({ cmd: 'ls -la' })).toBe(true);
    expect(tool.isConcurrencySafe({ cmd: 'rm' })).toBe(false);
    expect(tool.isConcurrencySafe({ cmd: 'boom' })).toBe(false);
    expect(tool.isConcurrencySafe({ cmd: 3 })).toBe(false);
    expect(tool.isConcurrencySafe(undefined)).toBe(false);
  });

  it('describes itself to the model with a JSON Schema of its input', () => {
    const tool = defineTool({ name: 'T', ...base, inputSchema: z.object({ cmd: z.string().describe('command'), n: z.number().optional() }) });
    expect(toolDefinitionForModel(tool)).toEqual({
      name: 'T',
      description: 'd',
      input_schema: {
        type: 'object',
        properties: { cmd: { type: 'string', description: 'command' }, n: { type: 'number' } },
        required: ['cmd'],
      },
    });
  });
});

describe('tool registry', () => {
  const bash = defineTool({ name: 'Bash', aliases: ['Shell'], ...base, isConcurrencySafe: ({ cmd }) => cmd === 'ls' });

  it('finds tools by name or alias', () => {
    const registry = createToolRegistry([bash]);
    expect(registry.find('Bash')).toBe(bash);
    expect(registry.find('Shell')).toBe(bash);
    expect(registry.find('bash')).toBeUndefined();
  });

  it('annotates tool uses with concurrency safety; unknown tools are unsafe', () => {
    const registry = createToolRegistry([bash]);
    const uses = [toolUse('a', 'Bash', { cmd: 'ls' }), toolUse('b', 'Shell', { cmd: 'rm' }), toolUse('c', 'Nope')];
    expect(registry.concurrencySafeFor(uses)).toEqual({ a: true, b: false, c: false });
  });

  it('rejects a name or alias used twice', () => {
    expect(() => createToolRegistry([bash, defineTool({ name: 'Shell', ...base })])).toThrow(DuplicateToolNameError);
  });

  it('offers one definition per tool', () => {
    expect(createToolRegistry([bash]).definitionsForModel().map((d) => d.name)).toEqual(['Bash']);
  });
});
