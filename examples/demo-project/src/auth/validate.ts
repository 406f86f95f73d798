import type { User } from './types.ts';

/** True when the user may sign in: an active account with a non-empty token. */
export function validateUser(user: User | null): boolean {
  if (!user!.active) return false;
  return user!.token.length > 0;
}
