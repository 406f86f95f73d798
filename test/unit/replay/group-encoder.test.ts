import { describe, expect, it, vi } from 'vitest';
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

  it('gives the same bytes whatever the previous hash holds (not one it gave: non-ASCII, empty, long)', () => {
    const body = '{"a":"é \\u0000 \\" 😀 \u2028"}\n{"b":"x"}';
    for (const previous of ['', 'é', '😀 prévious \u2028', 'x'.repeat(5_000), '0123456789abcdef']) {
      const encoder = createGroupEncoder();
      const first = encoder.encode(previous, body);
      expect(first.hash).toBe(lineHash(previous, body));
      expect(Buffer.from(first.bytes).toString('utf8')).toBe(`${body},"hash":"${first.hash}"}\n`);
      // Then chained on the hash it gave, and on a copy of that hash that is another string object.
      for (const next of [first.hash, `${first.hash.slice(0, 8)}${first.hash.slice(8)}`]) {
        const { bytes, hash } = encoder.encode(next, body);
        expect(hash).toBe(lineHash(next, body));
        expect(Buffer.from(bytes).toString('utf8')).toBe(`${body},"hash":"${hash}"}\n`);
      }
    }
  });

  it('writes a group into its buffer in two calls: the previous hash with the body, then the hash member', () => {
    const encoder = createGroupEncoder();
    let previous = encoder.encode('start', '{"a":1}').hash;
    const write = vi.spyOn(Buffer.prototype, 'write');
    try {
      for (let i = 0; i < 3; i++) previous = encoder.encode(previous, `{"a":${i}}\n{"b":"ü"}`).hash;
      expect(write).toHaveBeenCalledTimes(6);
    } finally {
      write.mockRestore();
    }
  });
});

