/** docs/integrations.md names exactly the span attributes `turnloop/otel` sets, so the table cannot drift. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GEN_AI, TURNLOOP } from '../../../src/otel/index.ts';

const doc = readFileSync(new URL('../../../docs/integrations.md', import.meta.url), 'utf8');

describe('docs/integrations.md', () => {
  it('documents every attribute the spans carry, and no other', () => {
    const named = new Set([...doc.matchAll(/`((?:gen_ai|turnloop|error)\.[a-z_.]+)`/g)].map((m) => m[1]));
    // The table abbreviates pairs: "`gen_ai.usage.input_tokens` / `output_tokens`", "`tokens_before` / `tokens_after`".
    for (const m of doc.matchAll(/`((?:gen_ai|turnloop)\.[a-z_.]+\.)[a-z_]+` \/ `([a-z_]+)`/g)) named.add(`${m[1]}${m[2]}`);
    const set = new Set<string>([...Object.values(GEN_AI), ...Object.values(TURNLOOP)]);
    expect([...set].filter((name) => !named.has(name)).sort()).toEqual([]);
    expect([...named].filter((name) => !set.has(name)).sort()).toEqual([]);
  });
});
