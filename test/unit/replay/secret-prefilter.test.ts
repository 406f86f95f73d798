import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_SECRET_PATTERNS, MAY_HOLD_SECRET } from '../../../src/replay/secret-patterns.ts';

/** The redactor's pre-filter as a flat list of its words (before it was written as a trie): the reference. */
const FLAT = /sk-ant-|password|passwd|secret|access_token|refresh_token|auth_token|authorization|x-api-key|api-key|apikey|api_key|x-auth-token|cookie|bearer|aws_?secret|gh[pousr]_|github_pat_|gl[a-z]{1,5}-|xox|hooks\.slack|aiza|private key|eyj/i;

const WORDS = ['sk-ant-', 'password', 'passwd', 'secret', 'access_token', 'refresh_token', 'auth_token', 'authorization', 'x-api-key', 'api-key', 'apikey', 'api_key', 'x-auth-token', 'cookie', 'bearer', 'aws_secret', 'awssecret', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'glcbt-', 'glsoat-', 'xox', 'hooks.slack', 'aiza', 'private key', 'eyj'];

describe('the secret pre-filter (MAY_HOLD_SECRET)', () => {
  it('finds every word in any case, alone and inside text', () => {
    for (const word of WORDS) {
      for (const form of [word, word.toUpperCase(), `${word[0].toUpperCase()}${word.slice(1)}`]) {
        expect(MAY_HOLD_SECRET.test(form), form).toBe(true);
        expect(MAY_HOLD_SECRET.test(`{"a":"x ${form} y"}`), form).toBe(true);
      }
    }
  });

  it('says "maybe" for every text a built-in case-insensitive pattern matches in the samples', () => {
    const samples = ['Authorization: Bearer abcdefghijkl', 'x-api-key=plainvalue', 'sk-ant-api03-AbCdEfGhIjKlMnOp', 'password: hunter22', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', 'eyJhbGciOiJI.eyJzdWIiOiIx.sig', 'aws_secret_access_key = AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'];
    for (const text of samples) {
      expect(BUILT_IN_SECRET_PATTERNS.some((p) => ((p.lastIndex = 0), p.test(text))), text).toBe(true);
      expect(MAY_HOLD_SECRET.test(text), text).toBe(true);
    }
  });

  it('matches exactly the texts the flat list of words matches', () => {
    const pieces = [...WORDS, ...WORDS.map((w) => w.slice(1)), ...WORDS.map((w) => w.slice(0, -1)), 'a', 'g', 'h', 'l', 'x', '-', '_', ' ', '.', 'K', 'é', '"', 'tool_result', 'input_tokens'];
    const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.boolean(), (value, upper) => {
        const sample = upper ? value.toUpperCase() : value;
        expect(MAY_HOLD_SECRET.test(sample)).toBe(FLAT.test(sample));
      }),
      { numRuns: 20_000 },
    );
  });
});
