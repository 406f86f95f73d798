/**
 * Regenerates the JSON Schema of scenario files from their zod schema: the block in docs/scenarios.md and
 * docs/scenario.schema.json (what the examples' "$schema" points editors to).
 * Run: npx tsx scripts/write-scenario-docs.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { scenarioJsonSchema, withFreshSchemaSection } from '../src/scenario/scenario-json-schema.ts';

const path = new URL('../docs/scenarios.md', import.meta.url);
writeFileSync(path, withFreshSchemaSection(readFileSync(path, 'utf8')));
writeFileSync(new URL('../docs/scenario.schema.json', import.meta.url), `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log('docs/scenarios.md and docs/scenario.schema.json regenerated');
