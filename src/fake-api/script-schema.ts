/**
 * The fake API's script: what it answers, in order, to the main model and to compaction requests.
 *
 * Invariants:
 * - A script is validated once, at the boundary (`parseFakeScript`), and is plain JSON so that CLI scenario files
 *   can carry it.
 * - Every validation error names the place (`model[2].content[0].text`) and what was expected there.
 * - An answer is recognised by its keys: `sse` → raw SSE; `status`/`error` → an HTTP error; `content` → a reply
 *   (streamed as SSE; with `cut_after_events` the socket is destroyed after that many events).
 */
import { z } from 'zod';

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
});

const rawSseSchema = z.strictObject({ sse: z.string(), status: z.number().int().min(200).max(599).optional(), delayMs });

const errorSchema = z.strictObject({
  status: z.number().int().min(400).max(599),
  error: z.strictObject({ type: z.string().min(1), message: z.string() }),
  headers: z.record(z.string(), z.string()).optional(),
  delayMs,
});

export type FakeContentBlock = z.output<(typeof blockSchemas)[keyof typeof blockSchemas]>;
export type FakeReply = z.output<typeof replySchema>;
export type FakeRawSse = z.output<typeof rawSseSchema>;
export type FakeError = z.output<typeof errorSchema>;
export type FakeAnswer = FakeReply | FakeRawSse | FakeError;

const answerSchema = z.unknown().transform((value, ctx): FakeAnswer => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'expected an answer object ({content}, {sse} or {status, error})' });
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
  return forward(schema, value, ctx) as FakeAnswer;
});

/** The script: answers for the main model and for compaction requests, each served in order. */
export const fakeScriptSchema = z.strictObject({
  model: z.array(answerSchema).default([]),
  compactionModel: z.array(answerSchema).default([]),
});

export type FakeScript = z.output<typeof fakeScriptSchema>;

/**
 * The parts of an answer, for documentation (e.g. a JSON Schema of scenario files): the content blocks and the
 * three answer shapes. Validation goes through `fakeScriptSchema`, which picks the shape by its keys.
 */
export const fakeAnswerShapes = { blocks: blockSchemas, reply: replySchema, rawSse: rawSseSchema, error: errorSchema } as const;
/** What a script file may contain before defaults are applied. */
export type FakeScriptInput = {
  model?: Array<FakeAnswerInput>;
  compactionModel?: Array<FakeAnswerInput>;
};
export type FakeAnswerInput = z.input<typeof replySchema> | z.input<typeof rawSseSchema> | z.input<typeof errorSchema>;

/** Thrown by `parseFakeScript`; `issues` carry a readable path and what was expected there. */
export class FakeScriptError extends Error {
  readonly code = 'INVALID_FAKE_SCRIPT';
  constructor(
    readonly issues: Array<{ path: string; message: string }>,
    readonly where?: string,
  ) {
    super(`invalid fake API script${where ? ` in ${where}` : ''}: ` + issues.map((i) => `${i.path}: ${i.message}`).join('; '));
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
