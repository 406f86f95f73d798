import { describe, expect, it } from 'vitest';
import { createGroupEncoder } from '../../../src/replay/group-encoder.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';

describe('the commit group encoder', () => {
  it('gives the UTF-8 of the group and its hash member, hashed as lineHash hashes the text', () => {
    const encoder = createGroupEncoder();
    const bodies = ['{"a":1}', '{"a":"é 日本語 😀"}\n{"b":2}', `{"big":"${'ü'.repeat(30_000)}"}`, `{"huge":"${'x'.repeat(200_000)}"}`, '{"after":"the buffer was given back"}'];
    let previous = 'header-hash';
    for (const body of bodies) {
      const { bytes, hash } = encoder.encode(previous, body);
      expect(hash).toBe(lineHash(previous, body));
      expect(Buffer.from(bytes).toString('utf8')).toBe(`${body},"hash":"${hash}"}\n`);
      previous = hash;
    }
  });
});
