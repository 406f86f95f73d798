/** Scripted scenario tools: minimal JSON Schema input checks, results consumed in call order per tool. */
import { describe, expect, it } from 'vitest';
import { NO_RESULT_LEFT, inputSchemaFromJsonSchema, scriptedTool, type ToolCallRecord } from '../../../src/scenario/scripted-tools.ts';
import { toolSchema } from '../../../src/scenario/scenario-schema.ts';

const ctx = (id: string) => ({ toolUseId: id, idempotencyKey: id, signal: new AbortController().signal, context: {} });

describe('scripted tools', () => {
  it('checks required keys and primitive property types, and accepts anything else', () => {
    const schema = inputSchemaFromJsonSchema({ type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] });
    expect(schema.safeParse({ path: 'a.ts' }).success).toBe(true);
    expect(schema.safeParse({ path: 'a.ts', limit: 5, extra: [1] }).success).toBe(true);
    expect(schema.safeParse({ limit: 5 }).success).toBe(false);
    expect(schema.safeParse({ path: 3 }).success).toBe(false);
    expect(schema.safeParse({ path: 'a.ts', limit: 1.5 }).success).toBe(false);
  });

  it('returns the scripted results in call order, records each call, and says when they are used up', async () => {
    const calls: ToolCallRecord[] = [];
    const spec = toolSchema.parse({ name: 'Read', results: [{ content: 'first' }, { content: 'oops', isError: true }, { throw: 'disk on fire' }] });
    const tool = scriptedTool(spec, (call) => calls.push(call));
    expect(await tool.call({ n: 1 }, ctx('t1'))).toEqual({ content: 'first' });
    expect(await tool.call({ n: 2 }, ctx('t2'))).toEqual({ content: 'oops', isError: true });
    await expect(Promise.resolve(tool.call({}, ctx('t3')))).rejects.toThrow('disk on fire');
    expect(await tool.call({}, ctx('t4'))).toEqual({ content: NO_RESULT_LEFT });
    expect(calls.map((c) => c.id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(calls[0]).toEqual({ id: 't1', name: 'Read', input: { n: 1 } });
  });

  it('answers concurrency and read-only questions as declared', () => {
    const tool = scriptedTool(toolSchema.parse({ name: 'Grep', concurrencySafe: true, readOnly: true, interruptBehavior: 'cancel' }), () => undefined);
    expect(tool.isConcurrencySafe({})).toBe(true);
    expect(tool.isReadOnly({})).toBe(true);
    expect(tool.interruptBehavior).toBe('cancel');
  });
});
