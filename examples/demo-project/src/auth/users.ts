import type { User } from './types.ts';

const USERS: User[] = [
  { id: 'ada', active: true, token: 'tok-ada' },
  { id: 'bob', active: false, token: '' },
];

/** The user with this id, or null when there is none. */
export function findUser(id: string): User | null {
  return USERS.find((user) => user.id === id) ?? null;
}
