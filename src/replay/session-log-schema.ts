/**
 * The session log format: JSON Lines, one zod schema for every line.
 *
 * Line 1 is the header; every following line is one EXTERNAL event fed to the reducer, in the order the reducer
 * took it. Effects are not stored: replay re-derives them with `step()`.
 *
 * Invariants:
 * - Event lines carry consecutive indexes starting at 1 (index 0 is the initial step, covered by the header).
 * - Version 2 (written now): `at` is the control digest of the state after the event (`controlDigestV2`), and
 *   `hash` of a line = lineHash(hash of the line before (header: `initialHash`), the line's bytes up to its `hash`
 *   member, which is last). Replay hashes the bytes it read and compares the digest it recomputes with the text
 *   of `at`: nothing is serialised twice. The header's `initialHash` (last member) covers the header's bytes.
 * - Version 1 (still read and verified): `hash` = chainHash(previous hash, the event's JSON text, the control
 *   summary as JSON); `at` is a tiny readable digest, for diffs; key order kind, index, event, hash, at.
 * - A line never holds a state snapshot, so the log grows linearly with the events, not with the history.
 * - The header holds the config snapshot and the JSON params (no functions); both are redacted like events.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LoopConfig } from '../config/config.ts';
import { loopEventSchema } from '../reducer/event-schema.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { LoopParams } from '../reducer/state.ts';

export const SESSION_LOG_FORMAT = 'turnloop-session';
/** The version the recorder writes. */
export const SESSION_LOG_VERSION = 2;
/** Every version replay reads. */
export type SessionLogVersion = 1 | 2;

function readEngineVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The engine version (package.json `version`) written into every header. */
export const ENGINE_VERSION = readEngineVersion();

/** Version 1's digest has exactly these members; version 2's has more (see `controlDigestV2`). */
const digestSchema = z.looseObject({ v: z.string(), turn: z.number(), msgs: z.number(), seq: z.number() });

export const headerLineSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(SESSION_LOG_FORMAT),
  version: z.union([z.literal(1), z.literal(2)]),
  engineVersion: z.string(),
  machineHash: z.string(),
  createdAt: z.string().optional(),
  config: z.looseObject({ sessionId: z.string(), model: z.string(), features: z.record(z.string(), z.boolean()) }),
  params: z.looseObject({ messages: z.array(z.unknown()) }),
  /** Extra redaction patterns of the recording (sources and flags), so replay hashes with the same redactor. */
  redactPatterns: z.array(z.object({ source: z.string(), flags: z.string() })).optional(),
  initialHash: z.string(),
  at: digestSchema,
});

export const eventLineSchema = z.object({
  kind: z.literal('event'),
  index: z.number().int().positive(),
  event: loopEventSchema,
  hash: z.string(),
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
  hash: string;
  at: StateDigest;
}

export type SessionLogLine = SessionHeader | SessionEventLine;
