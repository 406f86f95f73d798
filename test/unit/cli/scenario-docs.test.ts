/** docs/scenarios.md and docs/scenario.schema.json carry the JSON Schema generated from the zod schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema, withFreshSchemaSection } from '../../../src/scenario/scenario-json-schema.ts';
import { REPO_ROOT } from './capture-io.ts';

const REGENERATE = 'stale: run `npx tsx scripts/write-scenario-docs.ts`';

describe('scenario docs', () => {
  it('docs/scenarios.md holds the current generated JSON Schema', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/scenarios.md'), 'utf8');
    expect(withFreshSchemaSection(doc) === doc, REGENERATE).toBe(true);
  });

  it('docs/scenario.schema.json is the current generated JSON Schema', () => {
    const file = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/scenario.schema.json'), 'utf8'));
    expect(file, REGENERATE).toEqual(scenarioJsonSchema());
  });

  it('the schema rejects unknown keys and documents every top-level field', () => {
    const schema = scenarioJsonSchema() as { additionalProperties: unknown; properties: Record<string, unknown>; required: string[] };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['name', 'config', 'params', 'model', 'compactionModel', 'tools', 'stopHooks', 'compaction', 'abort', 'expect']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['params']));
    expect(schema.required).not.toContain('name');
  });
});
