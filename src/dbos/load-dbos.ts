/**
 * Loads DBOS (`@dbos-inc/dbos-sdk`, an optional peer dependency) when a DBOS function is first called, so that
 * importing `turnloop/dbos` without it installed does not fail with Node's bare `ERR_MODULE_NOT_FOUND`, and the
 * call that needs it says what to install.
 */
import type { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type pg from 'pg';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const DBOS_PACKAGE = '@dbos-inc/dbos-sdk';

/** `turnloop/dbos` was used without its optional peer dependency installed. */
export class DbosUnavailableError extends TurnloopError {
  readonly exitCode = 2;
  constructor(cause?: unknown) {
    super('DBOS_UNAVAILABLE', `turnloop/dbos needs the optional peer dependency ${DBOS_PACKAGE}, which is not installed: npm install ${DBOS_PACKAGE}@^5.3.0`, { cause });
    this.name = 'DbosUnavailableError';
  }
}

export type Dbos = typeof DBOS;
export interface DbosModule {
  DBOS: Dbos;
  DBOSClient: typeof DBOSClient;
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** DBOS's module; `DbosUnavailableError` when the package is not installed (other failures pass through). */
export async function loadDbosModule(load: () => Promise<DbosModule> = () => import(DBOS_PACKAGE as string) as Promise<DbosModule>): Promise<DbosModule> {
  try {
    return await load();
  } catch (error) {
    if (isMissingModule(error)) throw new DbosUnavailableError(error);
    throw error;
  }
}

/** The DBOS singleton (see `loadDbosModule`). */
export async function loadDbos(load?: () => Promise<DbosModule>): Promise<Dbos> {
  return (await loadDbosModule(load)).DBOS;
}

/** Postgres's client (`pg`, which DBOS itself depends on), for the fleet's own tables. */
export async function loadPg(): Promise<typeof pg> {
  try {
    return ((await import('pg' as string)) as { default: typeof pg }).default;
  } catch (error) {
    if (isMissingModule(error)) throw new DbosUnavailableError(error);
    throw error;
  }
}
