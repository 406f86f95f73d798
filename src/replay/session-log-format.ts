/**
 * The session log format's name, the versions the recorder writes and replay reads, and its limits: what the
 * recorder needs, apart from the line schemas (session-log-schema.ts, which re-exports these), so that a run that
 * records does not build the schemas it never parses with.
 */
import { readFileSync } from 'node:fs';

export const SESSION_LOG_FORMAT = 'turnloop-session';
/** The version the recorder writes. */
export const SESSION_LOG_VERSION = 3;
/** Every version replay reads. */
export type SessionLogVersion = 1 | 2 | 3;

/**
 * Version 3: event lines of one commit group at most. The recorder commits at least every this many steps; a log
 * with a longer run of lines without a hash is refused, so replay never holds more than a group's steps unchecked.
 */
export const MAX_GROUP_LINES = 256;

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
