/**
 * The session log format: JSON Lines, one zod schema for every line.
 *
 * Line 1 is the header; every following line is one EXTERNAL event fed to the reducer, in the order the reducer
 * took it. Effects are not stored: replay re-derives them with `step()`.
 *
 * Invariants:
 * - Event lines carry consecutive indexes starting at 1 (index 0 is the initial step, covered by the header).
 * - Version 3 (written now): `at` is the control digest of the state after the event (`controlDigest`). Only the
 *   LAST line of each commit group (the lines the recorder writes together, one `write`) carries `hash` (last
 *   member): lineHash(the hash before it (header: `initialHash`), the bytes of the group's earlier lines, each with
 *   its newline, then this line's bytes up to its `hash` member). One hash per group instead of per line; every
 *   byte is still covered, and `at` is still checked on every line. Lines after the last hash (a log cut inside a
 *   group) are covered by nothing: the parser drops them as a truncated end.
 * - Version 2 (still read and verified): the same with a hash on every line (each line its own group). Replay
 *   hashes the bytes it read and compares the digest it recomputes with the text of `at`: nothing is serialised
 *   twice. The header's `initialHash` (last member) covers the header's bytes (v2 and v3).
 * - Version 1 (still read and verified): `hash` = chainHash(previous hash, the event's JSON text, the control
 *   summary as JSON); `at` is a tiny readable digest, for diffs; key order kind, index, event, hash, at.
 * - A line never holds a state snapshot, so the log grows linearly with the events, not with the history.
 * - The header holds the config snapshot and the JSON params (no functions); both are redacted like events.
 */
import { z } from 'zod';
import type { LoopConfig } from '../config/config.ts';
import { loopEventSchema, messageSchema } from '../data/event-schema.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams } from '../data/state.ts';
import { SESSION_LOG_FORMAT, type SessionLogVersion } from './session-log-format.ts';

// The format's name, versions and limits, which the recorder needs without the schemas (session-log-format.ts).
export { ENGINE_VERSION, MAX_GROUP_LINES, SESSION_LOG_FORMAT, SESSION_LOG_VERSION, type SessionLogVersion } from './session-log-format.ts';

/** The readable digest of a state (`controlDigest`); loose so that a later version may add members. */
const digestSchema = z.looseObject({ v: z.string(), turn: z.number(), msgs: z.number(), seq: z.number() });

/**
 * The JSON params of a header: every member replay reads is checked for its type here, so a stranger's header with
 * `messages: [null]` or a string where a list belongs is refused with its place named, not met by a TypeError later.
 */
const paramsLineSchema = z.looseObject({
  messages: z.array(
    z.custom((value) => messageSchema.safeParse(value).success, {
      message: 'expected a message: type user, assistant, system, attachment, tombstone or tool_use_summary, with the members of its type (a user message: uuid, message {role, content: a string or a list of blocks})',
    }),
  ),
  systemPrompt: z.array(z.string()).optional(),
  userContext: z.record(z.string(), z.string()).optional(),
  systemContext: z.record(z.string(), z.string()).optional(),
  tools: z.array(z.string()).optional(),
  querySource: z.string().optional(),
  fallbackModel: z.string().optional(),
  maxTurns: z.number().nonnegative().optional(),
  maxOutputTokensOverride: z.number().positive().optional(),
  taskBudget: z.looseObject({ total: z.number().nonnegative() }).optional(),
  tokenBudget: z.number().nonnegative().optional(),
  thinking: z.looseObject({ type: z.string() }).optional(),
  runId: z.string().optional(),
  startedAt: z.number().optional(),
});

export const headerLineSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(SESSION_LOG_FORMAT),
  version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  engineVersion: z.string(),
  machineHash: z.string(),
  createdAt: z.string().optional(),
  config: z.looseObject({ sessionId: z.string(), model: z.string(), features: z.record(z.string(), z.boolean()) }),
  params: paramsLineSchema,
  /** Extra redaction patterns of the recording (sources and flags), so replay hashes with the same redactor. */
  redactPatterns: z.array(z.object({ source: z.string(), flags: z.string() })).optional(),
  initialHash: z.string(),
  at: digestSchema,
});

export const eventLineSchema = z.object({
  kind: z.literal('event'),
  index: z.number().int().positive(),
  event: loopEventSchema,
  /** Required up to version 2; in version 3 only on the last line of a commit group (the parser checks which). */
  hash: z.string().optional(),
  at: digestSchema,
});

/** THE schema of a session log line. */
export const sessionLogLineSchema = z.discriminatedUnion('kind', [headerLineSchema, eventLineSchema]);

export type StateDigest = z.output<typeof digestSchema>;

export interface SessionHeader {
  kind: 'header';
  format: typeof SESSION_LOG_FORMAT;
  version: SessionLogVersion;
  engineVersion: string;
  machineHash: string;
  createdAt?: string;
  config: LoopConfig;
  params: LoopParams;
  redactPatterns?: Array<{ source: string; flags: string }>;
  initialHash: string;
  at: StateDigest;
}

export interface SessionEventLine {
  kind: 'event';
  index: number;
  /** The event exactly as logged (validated by the schema, but not stripped: replay folds the logged JSON). */
  event: LoopEvent;
  /** Always up to version 2; in version 3 only on the last line of each commit group. */
  hash?: string;
  at: StateDigest;
}

export type SessionLogLine = SessionHeader | SessionEventLine;
