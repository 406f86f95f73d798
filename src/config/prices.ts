/**
 * Model prices in US dollars per million tokens, for `total_cost_usd` (docs/agent-sdk.md) and the cost bounds
 * (docs/bounds.md). Figures are Anthropic's published list prices for the standard (≤ 200k-token) context; a prompt
 * cache write costs 1.25× the input price (5-minute cache), a cache read 0.1×. Models are matched by the longest
 * prefix, so a dated id (`claude-sonnet-4-5-20250929`) finds its family. A table given in config replaces lookups
 * for the models it names.
 */

export interface ModelPrice {
  /** USD per million input tokens. */
  inputPerMTok: number;
  /** USD per million output tokens. */
  outputPerMTok: number;
  /** USD per million tokens written to the prompt cache. */
  cacheWritePerMTok: number;
  /** USD per million tokens read from the prompt cache. */
  cacheReadPerMTok: number;
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

function listPrice(inputPerMTok: number, outputPerMTok: number): ModelPrice {
  return { inputPerMTok, outputPerMTok, cacheWritePerMTok: inputPerMTok * 1.25, cacheReadPerMTok: inputPerMTok * 0.1 };
}

/** Published list prices, by model-id prefix. Frozen, so the prefix list below stays its keys. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-opus-4-6': listPrice(5, 25),
  'claude-opus-4-5': listPrice(5, 25),
  'claude-opus-4-1': listPrice(15, 75),
  'claude-opus-4': listPrice(15, 75),
  'claude-sonnet-4-6': listPrice(3, 15),
  'claude-sonnet-4-5': listPrice(3, 15),
  'claude-sonnet-4': listPrice(3, 15),
  'claude-3-7-sonnet': listPrice(3, 15),
  'claude-haiku-4-5': listPrice(1, 5),
  'claude-3-5-haiku': listPrice(0.8, 4),
});

/**
 * The published list's keys, read once: every model response prices its usage (`recordUsage`), and listing the
 * table's keys each time was a twentieth of a memoized step.
 */
const MODEL_PRICE_KEYS: readonly string[] = Object.freeze(Object.keys(MODEL_PRICES));

/** The price of `model` (longest matching prefix in `table`, then in the published list), or undefined if unknown. */
export function priceOf(model: string, table?: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  return (table && priceByLongestPrefix(model, table)) ?? priceByLongestPrefix(model, MODEL_PRICES, MODEL_PRICE_KEYS);
}

/**
 * The price under the longest of `keys` (by default `source`'s own) that prefixes `model`. A plain loop: the spend
 * count calls this on every model response, where a filter and a sort allocated each time (two keys of one length
 * cannot both prefix one model).
 */
function priceByLongestPrefix(model: string, source: Readonly<Record<string, ModelPrice>>, keys: readonly string[] = Object.keys(source)): ModelPrice | undefined {
  // A model named exactly as a key (the default model, most configs): no key longer than the model can prefix it.
  if (Object.hasOwn(source, model)) return source[model];
  let best: string | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // Its last character first (the list's keys share their first seven): most keys are out after one comparison,
    // where `startsWith` is a call per key (in a CPU profile of the fold, this search took a third as long as
    // following every step's path).
    const last = key.length - 1;
    if (last >= 0 && (last >= model.length || model.charCodeAt(last) !== key.charCodeAt(last))) continue;
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : source[best];
}

/** What `usage` costs at `price`, in USD. */
export function costOfUsage(usage: TokenUsage, price: ModelPrice): number {
  // The same arithmetic, in the same order, as with a `perToken` closure (made on every reply before).
  return (
    usage.input_tokens * (price.inputPerMTok / 1_000_000) +
    usage.output_tokens * (price.outputPerMTok / 1_000_000) +
    (usage.cache_creation_input_tokens ?? 0) * (price.cacheWritePerMTok / 1_000_000) +
    (usage.cache_read_input_tokens ?? 0) * (price.cacheReadPerMTok / 1_000_000)
  );
}

/** What `usage` on `model` cost, in USD; 0 for a model without a known price (the one rule every spend count follows). */
export function usageCostUsd(usage: TokenUsage, model: string, table?: Readonly<Record<string, ModelPrice>>): number {
  const price = priceOf(model, table);
  return price ? costOfUsage(usage, price) : 0;
}
