/**
 * The StructuredOutput tool's error text and the drafts it reads, as seen with claude 2.1.334 through the public
 * programs of test/agent-sdk: the model reads these errors to correct its call, and programs print them.
 */
import { expect, it } from 'vitest';
import { parseJsonSchema } from '../../../src/agent-sdk/structured-output.ts';

const invoice = {
  type: 'object',
  properties: {
    total: { type: 'number' },
    lines: { type: 'array', items: { type: 'object', properties: { item: { type: 'string' }, amount: { type: 'number' } }, required: ['item', 'amount'] } },
  },
  required: ['total', 'lines'],
};

it("names a nested field by its JSON pointer (`/lines/0`), and the top level 'root', as claude does", async () => {
  const { validate } = await parseJsonSchema(JSON.stringify(invoice));
  expect(validate({ total: 1, lines: [{ item: 'hammer' }] })).toBe("/lines/0: must have required property 'amount'");
  expect(validate({ total: '1', lines: [] })).toBe('/total: must be number');
  expect(validate({ lines: [] })).toBe("root: must have required property 'total'");
  expect(validate({ total: 1, lines: [] })).toBeUndefined();
});

it('a schema that declares draft 2020-12 (what zod 4 toJSONSchema writes by default) is accepted and checked by that draft', async () => {
  const { validate } = await parseJsonSchema(JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    required: ['pair'],
  }));
  expect(validate({ pair: ['a', 1] })).toBeUndefined();
  expect(validate({ pair: ['a', 'b'] })).toBe('/pair/1: must be number');
});
