/**
 * A fleet of workers on one real Postgres (docs/durable.md, "A fleet of workers"): sessions on a queue, workers
 * SIGKILLed at random and replaced under new ids, their sessions adopted by the live ones; an abort reaching the
 * worker that runs the session; and the claim on a dead worker won by exactly one of many racing workers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchDbosSessions, migrateDbosDatabase } from '../../src/dbos/dbos-sessions.ts';
import { connectFleet } from '../../src/dbos/fleet-client.ts';
import { runFleetDemo } from '../../src/dbos/fleet-demo.ts';
import { openFleetRegistry } from '../../src/dbos/fleet-registry.ts';
import { fleetDemoSession } from '../../src/dbos/fleet-worker.ts';
import { startTempPostgres, type TempPostgres } from '../../src/dbos/temp-postgres.ts';
import { replay } from '../../src/replay/replay.ts';

let postgres: TempPostgres;
let dir: string;

beforeAll(async () => {
  postgres = await startTempPostgres();
  dir = mkdtempSync(join(tmpdir(), 'turnloop-fleet-test-'));
  await migrateDbosDatabase(postgres.url);
});
afterAll(async () => {
  await postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the chaos demo: 3 workers, 24 sessions of 20 turns, workers SIGKILLed at random', () => {
  it('loses no session, runs no tool twice, and every transcript equals the uninterrupted one', async () => {
    // Two sessions per worker at once and model calls of 150 ms make the sessions outlast three kills (one every
    // 1-4 s, each followed by a new worker): every kill falls while sessions run (the demo stops killing at the end).
    const result = await runFleetDemo({
      workers: 3, sessions: 24, chaos: true, kills: 3, seed: 7, modelDelayMs: 150, workerConcurrency: 2,
      postgresUrl: postgres.url, dir: mkdtempSync(join(dir, 'chaos-')),
    });
    expect(result.kills).toBe(3);
    expect(result.lost).toBe(0);
    expect(result.completed).toBe(24);
    expect(result.toolRunsDuplicated).toBe(0);
    expect(result.sameAsUninterrupted).toBe(24);
    // Sessions moved: the first kill falls while every worker runs sessions, so at least that worker is adopted. A
    // worker killed when it held no session may end the demo unadopted (nothing waits for it), and a live worker
    // starved past deadAfterMs on a loaded machine may be adopted too (it stops; the checks above still hold).
    expect(result.adoptions).toBeGreaterThanOrEqual(1);
    expect(result.commitsPerTurn).toBeLessThanOrEqual(2);
  });
});

describe('abort anywhere', () => {
  it('a client that shares nothing with the worker but the database aborts its session; every tool_use is answered', async () => {
    const appName = 'turnloop-abort-test';
    const sessionDir = mkdtempSync(join(dir, 'abort-'));
    const config = { dir: sessionDir, turns: 200, modelDelayMs: 50, toolDelayMs: 5 };
    // The worker runs in this process; the client below shares nothing with it but the database.
    const worker = await launchDbosSessions({
      systemDatabaseUrl: postgres.url, appName, runMigrations: false,
      session: ({ sessionId }) => fleetDemoSession(config, sessionId),
      fleet: { heartbeatMs: 250, deadAfterMs: 5000 },
    });
    const client = await connectFleet({ systemDatabaseUrl: postgres.url, appName });
    try {
      await client.start('abort-me');
      while ((await client.journal('abort-me')).filter((entry) => entry.name.startsWith('tool:')).length < 3) await new Promise((r) => setTimeout(r, 100));
      await client.abort('abort-me', 'stopped by the operator');
      const terminal = await client.result('abort-me');
      expect(terminal.reason).toMatch(/^aborted_/);
      const log = join(sessionDir, 'abort-me.jsonl');
      await worker.exportSessionLog('abort-me', log);
      const { emitted } = replay(log);
      const asked = emitted.flatMap((m) => (m.type === 'assistant' ? m.message.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id) : []));
      const answered = emitted.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id) : []));
      expect(asked.length).toBeGreaterThanOrEqual(3);
      expect(asked.length).toBeLessThan(200);
      expect(new Set(answered)).toEqual(new Set(asked));
    } finally {
      await client.close();
      await worker.shutdown();
    }
  });
});

describe('adoption', () => {
  it('of a dead worker is won by exactly one of eight workers racing for it', async () => {
    const app = 'turnloop-race-test';
    const registries = await Promise.all(Array.from({ length: 8 }, () => openFleetRegistry(postgres.url, app)));
    const pool = new pg.Pool({ connectionString: postgres.url });
    try {
      for (const [i, registry] of registries.entries()) await registry.register(`live-${i}`, 1000);
      await registries[0].register('dead', 1000);
      await pool.query("UPDATE turnloop_fleet.workers SET beat_at = now() - interval '1 hour' WHERE app = $1 AND executor_id = 'dead'", [app]);
      const claims = await Promise.all(registries.map((registry, i) => registry.claimDead(`live-${i}`, 60_000)));
      expect(claims.flat()).toEqual(['dead']);
      // The adopted id can never beat or launch again.
      expect(await registries[0].beat('dead')).toBe(false);
      await expect(registries[1].register('dead', 1000)).rejects.toThrow(/adopted/);
      // A live id cannot be taken by a second process either.
      await expect(registries[2].register('live-3', 60_000)).rejects.toThrow(/still beating/);
    } finally {
      await pool.end();
      await Promise.all(registries.map((registry) => registry.close()));
    }
  });
});
