/**
 * A fleet worker whose re-enqueue of a dead worker's sessions fails gives its claim back, so the dead worker is
 * claimed and adopted again on a later heartbeat instead of its sessions staying PENDING for good.
 */
import { describe, expect, it, vi } from 'vitest';

const HEARTBEAT_MS = 20;
const events: string[] = [];
let resumeFailures = 1;

vi.mock('../../../src/dbos/load-dbos.ts', () => {
  const DBOS = {
    registerWorkflow: (fn: unknown) => fn,
    setConfig: () => undefined,
    launch: async () => undefined,
    registerQueue: async (name: string) => ({ name }),
    listWorkflows: async () => [{ workflowID: 'session-1' }],
    resumeWorkflows: async (ids: string[]) => {
      if (resumeFailures > 0) {
        resumeFailures -= 1;
        events.push('resume failed');
        throw new Error('connection lost');
      }
      events.push(`resumed ${ids.join(',')}`);
      return [];
    },
    shutdown: async () => undefined,
  };
  const DBOSClient = { create: async () => ({ destroy: async () => undefined }) };
  return { loadDbosModule: async () => ({ DBOS, DBOSClient }), loadDbos: async () => DBOS };
});

vi.mock('../../../src/dbos/fleet-registry.ts', () => {
  let claimedBy: string | null = null;
  return {
    openFleetRegistry: async () => ({
      register: async () => undefined,
      beat: async () => true,
      // The dead worker can be claimed while nobody holds the claim, as the real conditional update allows.
      claimDead: async (me: string) => (claimedBy === null ? ((claimedBy = me), events.push('claimed'), ['dead-1']) : []),
      releaseClaim: async (dead: string, me: string) => {
        if (claimedBy === me) claimedBy = null;
        events.push(`released ${dead}`);
      },
      lineageOf: async (dead: string) => [dead],
      listenForAborts: async () => async () => undefined,
      close: async () => undefined,
    }),
  };
});

const { launchDbosSessions } = await import('../../../src/dbos/dbos-sessions.ts');

describe('a fleet worker whose adoption fails', () => {
  it('gives the claim back and adopts the dead worker on a later heartbeat', async () => {
    const adopted: string[][] = [];
    const sessions = await launchDbosSessions({
      systemDatabaseUrl: 'postgres://unused',
      session: () => ({ prompt: 'hi' }),
      fleet: { heartbeatMs: HEARTBEAT_MS, deadAfterMs: 10 * HEARTBEAT_MS, onAdopt: (_dead, ids) => adopted.push(ids) },
    });
    await vi.waitFor(() => expect(adopted).toEqual([['session-1']]), { timeout: 5000, interval: 10 });
    await sessions.shutdown();
    expect(events).toEqual(['claimed', 'resume failed', 'released dead-1', 'claimed', 'resumed session-1']);
  });
});
