/**
 * The usage and cost of a turn, summed from its assistant messages (subagents' included), in the SDK's shapes:
 * `usage` (the API's snake_case fields, never null) and `modelUsage` keyed by model with `costUSD`. Prices come
 * from `src/config/prices.ts`; a model it does not know costs 0 (and says so nowhere else: docs/agent-sdk.md).
 * A reply arrives as one message per content block, all with the reply's id: earlier blocks carry the usage of
 * `message_start`, the last one the reply's final usage (src/model/stream-to-messages.ts). A reply counts once,
 * with the usage of its latest block, as the real executable counts it.
 */
import { usageCostUsd } from '../config/prices.ts';
import type { AssistantMessage, Usage } from '../messages/types.ts';

export interface SdkUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface SdkModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
}

export class TurnUsage {
  readonly usage: SdkUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  readonly modelUsage: Record<string, SdkModelUsage> = {};
  costUsd = 0;

  constructor(private readonly limits: (model: string) => { contextWindow: number; maxOutputTokens: number }) {}

  /** The usage already counted for each reply (by API message id), replaced when a later block of it arrives. */
  private readonly counted = new Map<string, { model: string; usage: Usage }>();

  add(message: AssistantMessage): void {
    const usage = message.message.usage;
    if (!usage) return;
    const model = message.message.model;
    const id = message.message.id;
    const earlier = id ? this.counted.get(id) : undefined;
    if (earlier) this.apply(earlier.model, earlier.usage, -1);
    if (id) this.counted.set(id, { model, usage });
    this.apply(model, usage, 1);
  }

  private apply(model: string, usage: Usage, sign: 1 | -1): void {
    const input = sign * usage.input_tokens;
    const output = sign * usage.output_tokens;
    const write = sign * (usage.cache_creation_input_tokens ?? 0);
    const read = sign * (usage.cache_read_input_tokens ?? 0);
    this.usage.input_tokens += input;
    this.usage.output_tokens += output;
    this.usage.cache_creation_input_tokens += write;
    this.usage.cache_read_input_tokens += read;
    const cost = sign * usageCostUsd(usage, model);
    this.costUsd += cost;
    const entry = (this.modelUsage[model] ??= {
      inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0, costUSD: 0,
      ...this.limits(model),
    });
    entry.inputTokens += input;
    entry.outputTokens += output;
    entry.cacheReadInputTokens += read;
    entry.cacheCreationInputTokens += write;
    entry.costUSD += cost;
  }
}
