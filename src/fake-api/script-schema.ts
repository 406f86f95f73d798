/**
 * The fake API's script: what it answers, in order, to the main model and to compaction requests.
 *
 * Invariants:
 * - A script is validated once, at the boundary (`parseFakeScript`), and is plain JSON so that CLI scenario files
 *   can carry it.
 * - Every validation error names the place (`model[2].content[0].text`) and what was expected there.
 * - An answer is recognised by its keys: `sse` → raw SSE; `status`/`error` → an HTTP error; `content` → a reply
 *   (streamed as SSE; with `cut_after_events` the socket is destroyed after that many events).
 * - `repeat: n` on any answer stands for n copies of it in the list.
 * - An HTTP error that omits `error` gets the real API's body for its status (429 `rate_limit_error`, 529
 *   `overloaded_error`, ...); a 429 without headers gets the real `retry-after` and `anthropic-ratelimit-*` ones.
 * - `compactionModel` absent (not `[]`): every compaction request gets `DEFAULT_COMPACTION_REPLY`, as many as asked.
 * - `agentRuns` maps a child run's key (`agentRunKey` of its tool_use ids) to its own answer list.
 */
import { z } from 'zod';
import { TurnloopError } from '../errors/turnloop-error.ts';

const delayMs = z.number().int().nonnegative().optional();

const usageSchema = z.strictObject({
  input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().optional(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullable().optional(),
  cache_read_input_tokens: z.number().int().nonnegative().nullable().optional(),
});

const blockSchemas = {
  text: z.strictObject({ type: z.literal('text'), text: z.string() }),
  thinking: z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().default('fake-signature') }),
  redacted_thinking: z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  tool_use: z.strictObject({
    type: z.literal('tool_use'),
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
  }),
};

const replySchema = z.strictObject({
  content: z.array(dispatch('type', blockSchemas)),
  stop_reason: z.string().optional(),
  usage: usageSchema.optional(),
  model: z.string().optional(),
  id: z.string().optional(),
  delayMs,
  /** Pause between two SSE events (lets tests abort mid-stream). */
  eventDelayMs: delayMs,
  /** Serve this many SSE events, then destroy the socket (a broken stream). */
  cut_after_events: z.number().int().nonnegative().optional(),
  /** Send only part of the last block and never its `content_block_stop` (stop reason defaults to `max_tokens`). */
  truncate_last_block: z.boolean().optional(),
  /** Replace event `after_events` by the API's SSE `error` event and end the stream (a mid-stream overload). */
  stream_error: z
    .strictObject({
      after_events: z.number().int().nonnegative(),
      type: z.string().min(1).default('overloaded_error'),
      message: z.string().default('Overloaded'),
    })
    .optional(),
});

const rawSseSchema = z.strictObject({ sse: z.string(), status: z.number().int().min(200).max(599).optional(), delayMs });

const errorSchema = z.strictObject({
  status: z.number().int().min(400).max(599),
  error: z.strictObject({ type: z.string().min(1), message: z.string() }).optional().describe("Absent: the real API's body for the status."),
  headers: z.record(z.string(), z.string()).optional().describe('Absent on a 429: retry-after 1 s and anthropic-ratelimit-* headers.'),
  delayMs,
});

/** The real API's error type and message per status, for error answers that script only a status. */
export const REAL_ERROR_BODIES: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: {
    type: 'rate_limit_error',
    message:
      'This request would exceed the rate limit for your organization (00000000-0000-4000-8000-000000000000) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
  },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/** What a compaction request gets when the script has no `compactionModel` list. */
export const DEFAULT_COMPACTION_REPLY = {
  content: [{ type: 'text' as const, text: '<summary>The user asked for a change; the work so far is summarised here.</summary>' }],
};

export type FakeContentBlock = z.output<(typeof blockSchemas)[keyof typeof blockSchemas]>;
export type FakeReply = z.output<typeof replySchema>;
export type FakeRawSse = z.output<typeof rawSseSchema>;
export type FakeError = z.output<typeof errorSchema>;
export type FakeStreamError = NonNullable<FakeReply['stream_error']>;
export type FakeAnswer = FakeReply | FakeRawSse | FakeError;

const repeatSchema = z.number().int().positive().optional().describe('Stands for this many copies of the answer.');

const answerSchema = z.unknown().transform((input, ctx): FakeAnswer[] => {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    ctx.addIssue({ code: 'custom', message: 'expected an answer object ({content}, {sse} or {status, error})' });
    return z.NEVER;
  }
  const { repeat, ...value } = input as Record<string, unknown>;
  const times = repeatSchema.safeParse(repeat);
  if (!times.success) {
    ctx.addIssue({ code: 'custom', path: ['repeat'], message: 'expected a positive whole number of copies' });
    return z.NEVER;
  }
  const schema = 'sse' in value ? rawSseSchema : 'status' in value || 'error' in value ? errorSchema : 'content' in value ? replySchema : null;
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected a reply {content: [...]}, raw SSE {sse: "..."} or an error {status, error: {type, message}}',
    });
    return z.NEVER;
  }
  const answer = forward(schema, value, ctx) as FakeAnswer;
  return Array.from({ length: times.data ?? 1 }, () => answer);
});

/** A list of answers, served in order (`repeat` expanded). */
export const fakeAnswerListSchema = z.array(answerSchema).transform((lists) => lists.flat());

/**
 * The script: answers for the main model and for compaction requests, each served in order; and optionally the
 * answers of child runs (subagents), by the run's `x-turnloop-agent-run` key (see `src/config/wire.ts`).
 */
export const fakeScriptSchema = z.strictObject({
  model: fakeAnswerListSchema.default([]),
  compactionModel: fakeAnswerListSchema.optional(),
  agentRuns: z.record(z.string().min(1), fakeAnswerListSchema).optional(),
});

export type FakeScript = z.output<typeof fakeScriptSchema>;

/**
 * The parts of an answer, for documentation (e.g. a JSON Schema of scenario files): the content blocks and the
 * three answer shapes. Validation goes through `fakeScriptSchema`, which picks the shape by its keys.
 */
export const fakeAnswerShapes = { blocks: blockSchemas, reply: replySchema, rawSse: rawSseSchema, error: errorSchema, repeat: repeatSchema } as const;
/** What a script file may contain before defaults are applied. */
export type FakeScriptInput = {
  model?: Array<FakeAnswerInput>;
  compactionModel?: Array<FakeAnswerInput>;
  agentRuns?: Record<string, Array<FakeAnswerInput>>;
};
export type FakeAnswerInput = (z.input<typeof replySchema> | z.input<typeof rawSseSchema> | z.input<typeof errorSchema>) & { repeat?: number };

/** Thrown by `parseFakeScript`; `issues` carry a readable path and what was expected there. */
export class FakeScriptError extends TurnloopError {
  constructor(
    readonly issues: Array<{ path: string; message: string }>,
    readonly where?: string,
  ) {
    super('INVALID_FAKE_SCRIPT', `invalid fake API script${where ? ` in ${where}` : ''}: ` + issues.map((i) => `${i.path}: ${i.message}`).join('; '));
    this.name = 'FakeScriptError';
  }
}

/** Validates a script (e.g. from a scenario file) and applies defaults. */
export function parseFakeScript(data: unknown, where?: string): FakeScript {
  const result = fakeScriptSchema.safeParse(data);
  if (result.success) return result.data;
  throw new FakeScriptError(
    result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    where,
  );
}

/** `['model', 2, 'content', 0]` → `model[2].content[0]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(root)';
}

// A union reports only "Invalid input"; choosing the branch by a key keeps the nested, precise messages.
function dispatch<K extends string, B extends Record<string, z.ZodType>>(key: K, branches: B) {
  return z.unknown().transform((value, ctx): z.output<B[keyof B]> => {
    const tag = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    const schema = typeof tag === 'string' && Object.hasOwn(branches, tag) ? branches[tag] : undefined;
    if (!schema) {
      ctx.addIssue({ code: 'custom', path: [key], message: `expected "${key}" to be one of ${Object.keys(branches).join(', ')}` });
      return z.NEVER;
    }
    return forward(schema, value, ctx) as z.output<B[keyof B]>;
  });
}

function forward(schema: z.ZodType, value: unknown, ctx: z.RefinementCtx): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
}
