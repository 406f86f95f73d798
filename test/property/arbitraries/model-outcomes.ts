/**
 * Arbitraries for what the model does when the engine calls it (one `ModelOutcome` per `call_model` effect).
 *
 * The outcomes are abstract: the fake interpreter turns them into concrete events, assigning message uuids and
 * tool_use ids that are unique per call and attempt. Invariants the generator keeps, because the real transport
 * keeps them: an API-error message is always the last message of a reply; prompt-too-long and media errors come
 * alone (the API rejected the request, nothing was sampled).
 */
import fc from 'fast-check';
import type { Usage } from '../../../src/messages/types.ts';

export type BlockSpec =
  | { kind: 'text'; text: string }
  | { kind: 'thinking' }
  /** `safe`: concurrency-safe flag; `early`: a streaming executor reports the result before the reply ends. */
  | { kind: 'tool_use'; name: string; safe: boolean; early: boolean };

/** How a reply ends: normally, or with an API-error message of that kind. */
export type ReplyEnding = 'normal' | 'max_output_tokens' | 'prompt_too_long' | 'media_size' | 'other_api_error';

export interface ReplySpec {
  blocks: BlockSpec[];
  ending: ReplyEnding;
  /** Usage reported with `model_done`; null = none reported. */
  usage: Usage | null;
}

export type ModelOutcome =
  | { kind: 'reply'; reply: ReplySpec }
  /** Some blocks, then `model_overloaded` (after the transport's retries). */
  | { kind: 'overloaded'; partial: BlockSpec[] }
  /** Some blocks, then `model_error` (image or other). */
  | { kind: 'error'; image: boolean; partial: BlockSpec[] }
  /** Some blocks, then `model_stream_fallback`, then the non-streaming retry's reply. */
  | { kind: 'stream_fallback'; partial: BlockSpec[]; retried: ReplySpec };

export const blockArb: fc.Arbitrary<BlockSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom('ok', 'done', 'x'.repeat(400)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('thinking' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('tool_use' as const),
      name: fc.constantFrom('Read', 'Bash', 'Grep'),
      safe: fc.boolean(),
      early: fc.boolean(),
    }),
  },
);

/** Usage figures, including ones far over the autocompact (167k) and blocking (177k) thresholds. */
export const usageArb: fc.Arbitrary<Usage | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 4,
    arbitrary: fc.record({
      input_tokens: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 160_000, max: 260_000 })),
      // 300 / 450 / 500 sit on the diminishing-returns (500) and completion (90 % of 1,000) boundaries.
      output_tokens: fc.oneof(fc.constantFrom(0, 300, 450, 499, 500, 501), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 600, max: 30_000 })),
    }),
  },
);

const blocksArb = fc.array(blockArb, { minLength: 0, maxLength: 4 });
const partialArb = fc.array(blockArb, { minLength: 0, maxLength: 2 });

/** A text-only reply: the run can end. */
const textReplyArb: fc.Arbitrary<ReplySpec> = fc.record({
  blocks: fc.array(blockArb.filter((b) => b.kind !== 'tool_use'), { minLength: 1, maxLength: 2 }),
  ending: fc.constant('normal' as const),
  usage: usageArb,
});

export const replyArb: fc.Arbitrary<ReplySpec> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ blocks: blocksArb, ending: fc.constant('normal' as const), usage: usageArb }) },
  { weight: 3, arbitrary: textReplyArb },
  {
    weight: 3,
    arbitrary: fc.record({ blocks: partialArb, ending: fc.constant('max_output_tokens' as const), usage: usageArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      blocks: fc.constant<BlockSpec[]>([]),
      ending: fc.constantFrom('prompt_too_long' as const, 'prompt_too_long' as const, 'media_size' as const),
      usage: fc.constant(null),
    }),
  },
  { weight: 1, arbitrary: fc.record({ blocks: partialArb, ending: fc.constant('other_api_error' as const), usage: usageArb }) },
);

export const modelOutcomeArb: fc.Arbitrary<ModelOutcome> = fc.oneof(
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('reply' as const), reply: replyArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('overloaded' as const), partial: partialArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('error' as const), image: fc.boolean(), partial: partialArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('stream_fallback' as const), partial: partialArb, retried: replyArb }),
  },
);

/** The model's script: consumed one outcome per call, cycling, so an adversarial pattern can repeat forever. */
export const modelScriptArb = fc.array(modelOutcomeArb, { minLength: 1, maxLength: 8 });
