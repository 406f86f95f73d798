import { findUser } from './users.ts';
import { validateUser } from './validate.ts';

/** Starts a session for `id`; unknown ids must be refused, not crash the server. */
export function startSession(id: string): { ok: boolean } {
  return { ok: validateUser(findUser(id)) };
}
