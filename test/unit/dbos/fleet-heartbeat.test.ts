/**
 * A fleet worker keeps beating while it adopts dead workers: adoption waits before re-enqueueing, and that wait
 * must not silence the adopter, or a claim of several dead workers gets the adopter itself declared dead.
 */
import { describe, expect, it, vi } from 'vitest';

const HEARTBEAT_MS = 30;
const DEAD = ['dead-1', 'dead-2', 'dead-3', 'dead-4', 'dead-5', 'dead-6'];
const beats: number[] = [];
const adopted: string[] = [];

vi.mock('../../../src/dbos/load-dbos.ts', () => {
  const DBOS = {
    registerWorkflow: (fn: unknown) => fn,
    setConfig: () => undefined,
    launch: async () => undefined,
    registerQueue: async (name: string) => ({ name }),
    listWorkflows: async () => [],
    resumeWorkflows: async () => [],
    shutdown: async () => undefined,
  };
  const DBOSClient = { create: async () => ({ destroy: async () => undefined }) };
  return { loadDbosModule: async () => ({ DBOS, DBOSClient }), loadDbos: async () => DBOS };
});

vi.mock('../../../src/dbos/fleet-registry.ts', () => {
  let claimed = false;
  return {
    openFleetRegistry: async () => ({
      register: async () => undefined,
      beat: async () => (beats.push(Date.now()), true),
      claimDead: async () => (claimed ? [] : ((claimed = true), DEAD)),
      lineageOf: async (dead: string) => [dead],
      listenForAborts: async () => async () => undefined,
      close: async () => undefined,
    }),
  };
});

const { launchDbosSessions } = await import('../../../src/dbos/dbos-sessions.ts');

describe('a fleet worker adopting several dead workers at once', () => {
  it('beats on schedule meanwhile and adopts them all', async () => {
    const sessions = await launchDbosSessions({
      systemDatabaseUrl: 'postgres://unused',
      session: () => ({ prompt: 'hi' }),
      fleet: { heartbeatMs: HEARTBEAT_MS, deadAfterMs: 10 * HEARTBEAT_MS, onAdopt: (dead) => adopted.push(dead) },
    });
    // Each adoption waits two heartbeats: six in a row would silence a worker for 12 heartbeats.
    await vi.waitFor(() => expect(adopted).toHaveLength(DEAD.length), { timeout: 5000, interval: 10 });
    await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS)); // beats after the adoptions too
    await sessions.shutdown();
    const gaps = beats.slice(1).map((at, i) => at - beats[i]!);
    expect(Math.max(...gaps), `gaps between beats: ${gaps.join(', ')} ms`).toBeLessThan(6 * HEARTBEAT_MS);
    expect(adopted.sort()).toEqual(DEAD);
  });
});
