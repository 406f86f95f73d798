import { describe, expect, it, vi } from 'vitest';
import { costOfUsage, MODEL_PRICES, priceOf } from '../../../src/config/prices.ts';

describe('model prices', () => {
  it('matches a dated model id to its family by the longest prefix', () => {
    expect(priceOf('claude-opus-4-1-20250805')).toEqual(MODEL_PRICES['claude-opus-4-1']);
    expect(priceOf('claude-opus-4-20250514')).toEqual(MODEL_PRICES['claude-opus-4']);
    expect(priceOf('claude-sonnet-4-5-20250929')?.inputPerMTok).toBe(3);
  });

  it('knows no price for an unknown model unless the config table names it', () => {
    expect(priceOf('my-proxy-model')).toBeUndefined();
    const mine = { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 3, cacheReadPerMTok: 4 };
    expect(priceOf('my-proxy-model-v2', { 'my-proxy-model': mine })).toBe(mine);
  });

  it('prices a turn of Sonnet 4.5 at the published $3 / $15 per million, cache write 1.25x, read 0.1x', () => {
    const usage = { input_tokens: 10_000, output_tokens: 2_000, cache_creation_input_tokens: 4_000, cache_read_input_tokens: 100_000 };
    // 10k × $3/M + 2k × $15/M + 4k × $3.75/M + 100k × $0.30/M = 0.03 + 0.03 + 0.015 + 0.03
    expect(costOfUsage(usage, priceOf('claude-sonnet-4-5')!)).toBeCloseTo(0.105, 10);
  });

  it('prices Opus 4.1 at $15 / $75 and Haiku 4.5 at $1 / $5 per million', () => {
    expect(costOfUsage({ input_tokens: 1_000_000, output_tokens: 1_000_000 }, priceOf('claude-opus-4-1')!)).toBe(90);
    expect(costOfUsage({ input_tokens: 1_000_000, output_tokens: 1_000_000 }, priceOf('claude-haiku-4-5')!)).toBe(6);
  });

  it('finds the longest listed prefix, from a frozen list', () => {
    expect(Object.isFrozen(MODEL_PRICES)).toBe(true);
    const keys = Object.keys(MODEL_PRICES);
    const longest = (model: string) => keys.filter((key) => model.startsWith(key)).sort((a, b) => b.length - a.length)[0];
    const models = [...keys, ...keys.map((key) => `${key}-20250101`), ...keys.map((key) => key.slice(0, -1)), 'claude', 'gpt-4', ''];
    for (const model of models) {
      const key = longest(model);
      expect(priceOf(model)).toBe(key === undefined ? undefined : MODEL_PRICES[key]);
    }
  });

  it('finds the longest prefix of a config table too, whatever its keys (empty, unicode, longer than the model)', () => {
    const price = (n: number) => ({ inputPerMTok: n, outputPerMTok: n, cacheWritePerMTok: n, cacheReadPerMTok: n });
    const table = { '': price(1), 'm': price(2), 'mo': price(3), 'modèle-🙂': price(4), 'modèle-🙂-x': price(5), 'a-much-longer-key-than-any-model': price(6) };
    const keys = Object.keys(table);
    const longest = (model: string) => keys.filter((key) => model.startsWith(key)).sort((a, b) => b.length - a.length)[0];
    for (const model of ['', 'm', 'mo', 'mx', '__proto__', 'constructor', 'toString', 'modèle-🙂', 'modèle-🙂-x', 'modèle-🙂-y', 'modèle-\ud83d', 'zzz', 'a-much-longer-key']) {
      expect(priceOf(model, table)).toBe(table[longest(model) as keyof typeof table]);
    }
  });

  it('compares a key with startsWith only when its last character matches the model (round 15)', () => {
    const startsWith = vi.spyOn(String.prototype, 'startsWith');
    try {
      expect(priceOf('claude-sonnet-4-5-20250929')).toBe(MODEL_PRICES['claude-sonnet-4-5']);
      // 10 keys; before round 15 each took a startsWith call.
      expect(startsWith.mock.calls.length).toBeLessThanOrEqual(3);
      startsWith.mockClear();
      // A model named exactly as a key (the default model) is found without a search.
      expect(priceOf('claude-sonnet-4-6')).toBe(MODEL_PRICES['claude-sonnet-4-6']);
      expect(startsWith).not.toHaveBeenCalled();
    } finally {
      startsWith.mockRestore();
    }
  });
});
