/** A fleet worker whose DBOS launch fails closes the fleet registry it opened (its pool would keep the process up). */
import { describe, expect, it, vi } from 'vitest';

const closed: string[] = [];

vi.mock('../../../src/dbos/load-dbos.ts', () => {
  const DBOS = {
    registerWorkflow: (fn: unknown) => fn,
    setConfig: () => undefined,
    launch: async () => {
      throw new Error('launch failed: the database refused the connection');
    },
  };
  return { loadDbosModule: async () => ({ DBOS, DBOSClient: {} }), loadDbos: async () => DBOS };
});

vi.mock('../../../src/dbos/fleet-registry.ts', () => ({
  openFleetRegistry: async () => ({
    register: async () => undefined,
    close: async () => void closed.push('registry'),
  }),
}));

const { launchDbosSessions } = await import('../../../src/dbos/dbos-sessions.ts');

describe('a fleet worker whose launch fails', () => {
  it('rejects with the launch error and closes its registry', async () => {
    const launched = launchDbosSessions({ systemDatabaseUrl: 'postgres://unused', session: () => ({ prompt: 'hi' }), fleet: {} });
    await expect(launched).rejects.toThrow('launch failed: the database refused the connection');
    expect(closed).toEqual(['registry']);
  });
});
