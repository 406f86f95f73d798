/**
 * A tool list that changes between turns (`tools: () => Tool[]`): the registry swaps its list only when
 * definitions are taken for a model call, so a tool_use is looked up in the list its model was offered.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRefreshingToolRegistry, defineTool, DuplicateToolNameError, toolDefinitionForModel, type Tool } from '../../../src/tools/index.ts';

const tool = (name: string, readOnly = false) =>
  defineTool({ name, description: name, inputSchema: z.object({}), isConcurrencySafe: () => readOnly, call: () => ({ content: name }) });

describe('createRefreshingToolRegistry', () => {
  it('keeps the list it offered until definitions are taken again', () => {
    let current: Tool[] = [tool('a')];
    const registry = createRefreshingToolRegistry(() => current);
    expect(registry.definitionsForModel().map((d) => d.name)).toEqual(['a']);
    current = [tool('a'), tool('b', true)];
    expect(registry.find('b')).toBeUndefined();
    expect(registry.tools.map((t) => t.name)).toEqual(['a']);
    expect(registry.definitionsForModel().map((d) => d.name)).toEqual(['a', 'b']);
    expect(registry.find('b')?.name).toBe('b');
    expect(registry.concurrencySafeFor([{ type: 'tool_use', id: 'x', name: 'b', input: {} }])).toEqual({ x: true });
  });

  it('rebuilds only when the tools differ (one by one, by identity)', () => {
    const a = tool('a');
    const registry = createRefreshingToolRegistry(() => [a]);
    const first = registry.definitionsForModel();
    expect(registry.definitionsForModel()).toBe(first);
  });

  it('refuses a list in which two tools claim one name', () => {
    let current: Tool[] = [tool('a')];
    const registry = createRefreshingToolRegistry(() => current);
    current = [tool('a'), tool('a')];
    expect(() => registry.definitionsForModel()).toThrow(DuplicateToolNameError);
  });
});

describe('inputJSONSchema', () => {
  it('is what the model sees, without $schema, while inputSchema still validates', () => {
    const withSchema = defineTool({
      name: 'mcp_like',
      description: 'd',
      inputSchema: z.record(z.string(), z.unknown()),
      inputJSONSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'string' } } },
      call: () => ({ content: '' }),
    });
    expect(toolDefinitionForModel(withSchema).input_schema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(withSchema.inputSchema.safeParse('not an object').success).toBe(false);
  });
});
