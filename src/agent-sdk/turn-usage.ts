/**
 * The usage and cost of a turn, summed from its assistant messages (subagents' included), in the SDK's shapes:
 * `usage` (the API's snake_case fields, never null) and `modelUsage` keyed by model with `costUSD`. Prices come
 * from `src/config/prices.ts`; a model it does not know costs 0 (and says so nowhere else: docs/agent-sdk.md).
 */
import { usageCostUsd } from '../config/prices.ts';
import type { AssistantMessage } from '../messages/types.ts';

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

  add(message: AssistantMessage): void {
    const usage = message.message.usage;
    if (!usage) return;
    const input = usage.input_tokens;
    const output = usage.output_tokens;
    const write = usage.cache_creation_input_tokens ?? 0;
    const read = usage.cache_read_input_tokens ?? 0;
    this.usage.input_tokens += input;
    this.usage.output_tokens += output;
    this.usage.cache_creation_input_tokens += write;
    this.usage.cache_read_input_tokens += read;
    const model = message.message.model;
    const cost = usageCostUsd(usage, model);
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
