/**
 * A tool's input schema may come from zod 4, zod 3 (here `zod/v3`, the zod 3 API that zod 4 ships, as a zod 3 project
 * has it), zod/mini or any other Standard Schema: each validates the model's input (the invalid-input message names
 * the place) and shows the model a JSON Schema. A schema turnloop cannot use is refused by `defineTool`, in one line.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { defineTool, toolDefinitionForModel } from '../../../src/tools/define-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import { messageBuilders, scriptedModelCaller } from '../../../src/testing/index.ts';

/** A Standard Schema of no known library (as valibot or arktype would give): `{ text: string }`. */
function handMadeSchema(withJsonSchema: boolean) {
  const validate = (value: unknown) =>
    typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string'
      ? { value: value as { text: string } }
      : { issues: [{ message: 'expected a string', path: [{ key: 'text' }] }] };
  const jsonSchema = { input: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }), output: () => ({}) };
  return { '~standard': { version: 1 as const, vendor: 'handmade', validate, ...(withJsonSchema ? { jsonSchema } : {}), types: undefined as unknown as { input: { text: string }; output: { text: string } } } };
}

const SCHEMAS = {
  'zod 4': z.object({ text: z.string() }),
  'zod 3': z3.object({ text: z3.string() }),
  'zod/mini': zm.object({ text: zm.string() }),
  'a Standard Schema with a JSON Schema': handMadeSchema(true),
};

describe.each(Object.entries(SCHEMAS))('an input schema from %s', (_kind, inputSchema) => {
  const echo = defineTool({ name: 'echo', description: 'Repeats its input', inputSchema, call: async (input) => ({ content: `said ${input.text}` }) });

  it('is shown to the model as a JSON Schema of the input', () => {
    const shown = toolDefinitionForModel(echo).input_schema as { type: string; properties: Record<string, { type: string }>; required: string[]; $schema?: string };
    expect(shown.type).toBe('object');
    expect(shown.properties.text!.type).toBe('string');
    expect(shown.required).toEqual(['text']);
    expect(shown.$schema).toBeUndefined();
  });

  it('runs a valid call and answers an invalid one with the place that is wrong', async () => {
    const m = messageBuilders();
    const callModel = scriptedModelCaller([m.reply.toolUse('echo', { text: 'hi' }), m.reply.toolUse('echo', { text: 5 }), m.reply.text('Done.')]);
    const { items, terminal } = await runQuery({ messages: [m.user('Say hi')], tools: [echo], deps: { callModel } });
    expect(terminal.reason).toBe('completed');
    const results = items.flatMap((item) => (item.type === 'user' && Array.isArray(item.message.content) ? item.message.content : [])).filter((block) => block.type === 'tool_result');
    expect(JSON.stringify(results[0])).toContain('said hi');
    expect(results[1]).toMatchObject({ is_error: true });
    expect(JSON.stringify(results[1])).toMatch(/the input for echo is invalid:\\n- text: /);
  });
});

describe('defineTool refuses, in one line, a schema it cannot use', () => {
  const spec = { name: 'echo', description: 'd', call: async () => ({ content: 'x' }) };
  it.each([
    ['a plain JSON Schema', { type: 'object', properties: { text: { type: 'string' } } }, /^defineTool\('echo'\): inputSchema: a plain JSON Schema validates nothing by itself: .*inputJSONSchema/],
    ['a zod 3 schema older than 3.24', { _def: { typeName: 'ZodObject' }, safeParse: () => ({ success: true }) }, /^defineTool\('echo'\): inputSchema: a zod 3 schema older than 3\.24 .*upgrade zod/],
    ['a Standard Schema without a JSON Schema', handMadeSchema(false), /^defineTool\('echo'\): inputSchema: a handmade schema has no JSON Schema to show the model: pass inputJSONSchema too$/],
    ['a string', 'text', /^defineTool\('echo'\): inputSchema: expected a schema .*got string$/],
  ])('%s', (_kind, inputSchema, message) => {
    expect(() => defineTool({ ...spec, inputSchema } as never)).toThrow(message);
  });

  it('a Standard Schema without a JSON Schema is fine with inputJSONSchema beside it', () => {
    const given = { type: 'object', properties: { text: { type: 'string' } } };
    const tool = defineTool({ ...spec, inputSchema: handMadeSchema(false), inputJSONSchema: given });
    expect(toolDefinitionForModel(tool).input_schema).toEqual(given);
  });
});
