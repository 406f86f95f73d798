/**
 * The fleet's own bookkeeping in the system database, beside DBOS's tables (schema `turnloop_fleet`): one row per
 * worker with its last heartbeat, and one row per requested abort. DBOS keeps the sessions themselves.
 *
 * Invariants (docs/durable.md, "A fleet of workers"):
 * - A dead worker is adopted at most once: the claim is one conditional `UPDATE … WHERE adopted_by IS NULL`, so of
 *   two workers racing for it exactly one gets the row back; only that one re-enqueues the dead worker's sessions.
 * - A worker whose row says it was adopted never runs again under that id: its heartbeat sees the claim and it
 *   stops, and a launch under an adopted id is refused. The adopter waits one heartbeat period after its claim
 *   before re-enqueueing, so a worker that was only stalled is gone before its sessions run elsewhere.
 * - An abort is a row first (so a session started, adopted or recovered later still sees it), then a
 *   notification to every listening worker.
 */
import type pg from 'pg';
import { loadPg } from './load-dbos.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const ABORT_CHANNEL = 'turnloop_fleet_abort';

const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS turnloop_fleet;
CREATE TABLE IF NOT EXISTS turnloop_fleet.workers (
  app text NOT NULL,
  executor_id text NOT NULL,
  launched_at timestamptz NOT NULL DEFAULT now(),
  beat_at timestamptz NOT NULL DEFAULT now(),
  adopted_by text,
  adopted_at timestamptz,
  PRIMARY KEY (app, executor_id)
);
CREATE TABLE IF NOT EXISTS turnloop_fleet.aborts (
  app text NOT NULL,
  session_id text NOT NULL,
  reason text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app, session_id)
);`;

/** A launch under an executor id that a live worker holds, or that was declared dead and adopted. */
export class ExecutorIdTakenError extends TurnloopError {
  constructor(readonly executorId: string, readonly why: 'adopted' | 'alive') {
    super(
      'EXECUTOR_ID_TAKEN',
      why === 'adopted'
        ? `executor id '${executorId}' was declared dead and its sessions adopted by another worker; launch this worker under a new id`
        : `executor id '${executorId}' belongs to a worker that is still beating; give every worker process its own id`,
    );
  }
}

export interface FleetRegistry {
  /** Registers this worker (refusing an id that is alive or adopted). */
  register(executorId: string, aliveWithinMs: number): Promise<void>;
  /** Beats; false when this worker was declared dead and adopted meanwhile (it must stop). */
  beat(executorId: string): Promise<boolean>;
  /** Claims the workers silent for longer than `deadAfterMs`; returns the ids this worker won. */
  claimDead(me: string, deadAfterMs: number): Promise<string[]>;
  /** Gives up a claim this worker could not carry out, so that a later tick (of any worker) claims `dead` again. */
  releaseClaim(dead: string, me: string): Promise<void>;
  /**
   * The executor ids whose sessions adopting `dead` takes over: `dead` itself and, transitively, every worker that
   * `dead` had claimed (it may have died between its claim and re-enqueueing their sessions).
   */
  lineageOf(dead: string): Promise<string[]>;
  /** Records an abort and notifies every worker. */
  requestAbort(sessionId: string, reason: string): Promise<void>;
  /** The abort reason recorded for a session, if any. */
  abortOf(sessionId: string): Promise<string | null>;
  /** Calls `onAbort` for every abort notified from now on (this app's only). Returns a stop function. */
  listenForAborts(onAbort: (sessionId: string, reason: string) => void): Promise<() => Promise<void>>;
  /** How many workers of this app were adopted. */
  adoptions(): Promise<number>;
  close(): Promise<void>;
}

export async function openFleetRegistry(databaseUrl: string, app: string): Promise<FleetRegistry> {
  const { Pool, Client } = await loadPg();
  const pool = new Pool({ connectionString: databaseUrl, max: 3 });
  pool.on('error', () => undefined); // an idle client's connection lost; the next query reconnects
  // Several workers launching at once on a new database race on CREATE … IF NOT EXISTS; one lock orders them.
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['turnloop_fleet.schema']);
    await client.query(SCHEMA_SQL);
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['turnloop_fleet.schema']).catch(() => undefined);
    client.release();
  }
  const listeners: pg.Client[] = [];

  return {
    async register(executorId, aliveWithinMs) {
      const { rows } = await pool.query(
        `INSERT INTO turnloop_fleet.workers AS w (app, executor_id) VALUES ($1, $2)
         ON CONFLICT (app, executor_id) DO UPDATE SET beat_at = now(), launched_at = now()
           WHERE w.adopted_by IS NULL AND w.beat_at < now() - ($3 * interval '1 millisecond')
         RETURNING executor_id`,
        [app, executorId, aliveWithinMs],
      );
      if (rows.length === 1) return;
      const existing = await pool.query<{ adopted_by: string | null }>(
        'SELECT adopted_by FROM turnloop_fleet.workers WHERE app = $1 AND executor_id = $2',
        [app, executorId],
      );
      throw new ExecutorIdTakenError(executorId, existing.rows[0]?.adopted_by ? 'adopted' : 'alive');
    },
    async beat(executorId) {
      const { rowCount } = await pool.query(
        'UPDATE turnloop_fleet.workers SET beat_at = now() WHERE app = $1 AND executor_id = $2 AND adopted_by IS NULL',
        [app, executorId],
      );
      return rowCount === 1;
    },
    async claimDead(me, deadAfterMs) {
      const { rows } = await pool.query<{ executor_id: string }>(
        `UPDATE turnloop_fleet.workers SET adopted_by = $2, adopted_at = now()
         WHERE app = $1 AND adopted_by IS NULL AND executor_id <> $2 AND beat_at < now() - ($3 * interval '1 millisecond')
         RETURNING executor_id`,
        [app, me, deadAfterMs],
      );
      return rows.map((row) => row.executor_id);
    },
    async releaseClaim(dead, me) {
      await pool.query(
        'UPDATE turnloop_fleet.workers SET adopted_by = NULL, adopted_at = NULL WHERE app = $1 AND executor_id = $2 AND adopted_by = $3',
        [app, dead, me],
      );
    },
    async lineageOf(dead) {
      const { rows } = await pool.query<{ executor_id: string }>(
        `WITH RECURSIVE lineage(executor_id) AS (
           SELECT $2::text
           UNION SELECT w.executor_id FROM turnloop_fleet.workers w JOIN lineage l ON w.adopted_by = l.executor_id WHERE w.app = $1
         ) SELECT executor_id FROM lineage`,
        [app, dead],
      );
      return rows.map((row) => row.executor_id);
    },
    async requestAbort(sessionId, reason) {
      await pool.query(
        'INSERT INTO turnloop_fleet.aborts (app, session_id, reason) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [app, sessionId, reason],
      );
      await pool.query('SELECT pg_notify($1, $2)', [ABORT_CHANNEL, JSON.stringify({ app, sessionId, reason })]);
    },
    async abortOf(sessionId) {
      const { rows } = await pool.query<{ reason: string }>(
        'SELECT reason FROM turnloop_fleet.aborts WHERE app = $1 AND session_id = $2',
        [app, sessionId],
      );
      return rows[0]?.reason ?? null;
    },
    async listenForAborts(onAbort) {
      const listener = new Client({ connectionString: databaseUrl });
      listener.on('error', () => undefined);
      await listener.connect();
      listeners.push(listener);
      listener.on('notification', (note) => {
        if (note.channel !== ABORT_CHANNEL || note.payload === undefined) return;
        let message: { app?: unknown; sessionId?: unknown; reason?: unknown };
        try {
          message = JSON.parse(note.payload) as typeof message;
        } catch {
          return;
        }
        if (message.app === app && typeof message.sessionId === 'string') onAbort(message.sessionId, String(message.reason ?? 'abort'));
      });
      await listener.query(`LISTEN ${ABORT_CHANNEL}`);
      return async () => {
        listeners.splice(listeners.indexOf(listener), 1);
        await listener.end().catch(() => undefined);
      };
    },
    async adoptions() {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM turnloop_fleet.workers WHERE app = $1 AND adopted_by IS NOT NULL',
        [app],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async close() {
      await Promise.all(listeners.splice(0).map((listener) => listener.end().catch(() => undefined)));
      await pool.end();
    },
  };
}
