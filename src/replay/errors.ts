/**
 * The typed errors of record & replay. Each has a stable `code` and structured fields, so callers (and the CLI)
 * can react without parsing messages.
 */
import type { StateDigest } from './session-log-schema.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** A line of a JSONL file is not what its format expects: names the file, the line and what was expected. */
export abstract class LineFormatError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly line: number,
    readonly expected: string,
  ) {
    super('LINE_FORMAT', `${file}:${line}: ${expected}`);
  }
}

/** A line of a session log is not what the schema expects (never thrown for a truncated LAST line). */
export class SessionLogParseError extends LineFormatError {
  override readonly code = 'SESSION_LOG_MALFORMED';
  override readonly name = 'SessionLogParseError';
}

/** A new session would be recorded into a file that already holds one (a second header would break it). */
export class SessionLogExistsError extends TurnloopError {
  readonly exitCode = 2;
  constructor(readonly file: string) {
    super('SESSION_LOG_EXISTS', `${file} already holds a session log; record a new session to a new path (or delete the file first), or continue it with resume`);
    this.name = 'SessionLogExistsError';
  }
}

/** Replaying an event gave a state whose hash differs from the recorded one. */
export class ReplayDivergenceError extends TurnloopError {
  constructor(
    /** Index of the first event whose resulting state differs (0 = the initial state). */
    readonly index: number,
    readonly expected: { hash: string; at: StateDigest },
    readonly actual: { hash: string; at: StateDigest },
    /** A short human-readable diff of the readable digests (or a note that only hashed fields differ). */
    readonly diff: string,
  ) {
    super('REPLAY_DIVERGENCE', `replay diverged at event ${index}: expected hash ${expected.hash}, got ${actual.hash} (${diff})`);
    this.name = 'ReplayDivergenceError';
  }
}

/** The log was recorded with a different statechart; refused unless `allowVersionSkew`. */
export class MachineVersionMismatchError extends TurnloopError {
  constructor(
    readonly recorded: string,
    readonly current: string,
    readonly recordedEngineVersion: string,
  ) {
    super(
      'MACHINE_VERSION_MISMATCH',
      `the log was recorded with machine ${recorded} (engine ${recordedEngineVersion}), this engine has machine ${current}; ` +
        'pass allowVersionSkew (--allow-version-skew) to replay it anyway',
    );
    this.name = 'MachineVersionMismatchError';
  }
}

/** Compares two digests field by field: `v: sampling → afterTools; msgs: 4 → 5` (any member, both versions). */
export function digestDiff(expected: StateDigest, actual: StateDigest): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined');
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  const parts = keys
    .filter((key) => text(expected[key]) !== text(actual[key]))
    .map((key) => `${key}: ${text(expected[key])} → ${text(actual[key])}`);
  return parts.length > 0 ? parts.join('; ') : 'state value and counts agree; a hashed control field (tokens, iteration, effects) differs';
}

/** A child run asked for by its tool_use ids has no log in the tree. */
export class ChildRunNotFoundError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    /** The tool_use ids from the root to the missing run. */
    readonly toolUseIds: string[],
    /** The log of its parent, and the child runs that parent does have. */
    readonly parentLog: string,
    readonly known: string[],
  ) {
    super('CHILD_RUN_NOT_FOUND', `no child run ${toolUseIds.join('/')} under ${parentLog}: expected one of ${known.join(', ') || '(none: that run has no child runs)'}`);
    this.name = 'ChildRunNotFoundError';
  }
}
