import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EFFECT_TYPES } from '../../src/data/effects.ts';
import { loopEventSchema } from '../../src/data/event-schema.ts';

const doc = readFileSync(new URL('../../docs/effects.md', import.meta.url), 'utf8');

function documentedRows(section: string): string[] {
  const body = doc.split(`## ${section}`)[1]?.split('\n## ')[0] ?? '';
  return [...body.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
}

describe('docs/effects.md', () => {
  it('documents every effect type, and only those', () => {
    expect(documentedRows('Effects').sort()).toEqual([...EFFECT_TYPES].sort());
  });

  it('documents every event type, and only those', () => {
    const eventTypes = loopEventSchema.options.map((option) => option.shape.type.value as string);
    expect(documentedRows('Events').sort()).toEqual(eventTypes.sort());
  });
});
