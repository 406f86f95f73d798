/**
 * `groupHasher` (src/replay/replay.ts), which hashes a commit group from a reused buffer for replay's one pass, gives
 * what `lineHash` gives for the same text: any slice of any text (non-ASCII, astral characters, lone surrogates),
 * one hasher reused over groups that grow and shrink.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupHasher } from '../../../src/replay/replay.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';
import { propertyOptions } from '../../property/settings.ts';

describe('groupHasher', () => {
  it('hashes text[from, to) after the previous hash as lineHash does', () => {
    const hasher = groupHasher();
    const text = fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 100 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 20 }), text, fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }), (groups) => {
        for (const [previous, whole, a, b] of groups) {
          const from = Math.min(a, b) % (whole.length + 1);
          const to = from + ((Math.max(a, b) - Math.min(a, b)) % (whole.length - from + 1));
          expect(hasher(previous, whole, from, to)).toBe(lineHash(previous, whole.slice(from, to)));
        }
      }),
      propertyOptions(500),
    );
  });

  it('grows its buffer for a group longer than any before', () => {
    const hasher = groupHasher();
    const small = 'a'.repeat(10);
    const large = `é${'x'.repeat(70_000)}\ud800`;
    expect(hasher('0123456789abcdef', small, 0, small.length)).toBe(lineHash('0123456789abcdef', small));
    expect(hasher('0123456789abcdef', large, 0, large.length)).toBe(lineHash('0123456789abcdef', large));
    expect(hasher('0123456789abcdef', small, 2, 5)).toBe(lineHash('0123456789abcdef', small.slice(2, 5)));
  });
});
