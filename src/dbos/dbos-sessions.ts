/**
 * `turnloop/dbos`: durable sessions on DBOS Transact and Postgres. Each session is one DBOS workflow whose id is
 * the session id; the durable driver's journal entries are its steps (one per effect, one per tool call), so a
 * worker killed mid-session is recovered by the next worker launched with its executor id, which replays the
 * recorded steps and goes on live from the first one missing.
 *
 * Invariants:
 * - One DBOS instance per process (DBOS is a singleton): `launchDbosSessions` configures, registers and launches
 *   it, `shutdown` stops it.
 * - Nothing leaves the machine's loopback unless the database URL points elsewhere: no Conductor connection (it
 *   needs a key we never pass), no OTLP export, no tracing; DBOS 5 has no admin server. DBOS logs only errors,
 *   unless `logLevel` says otherwise.
 * - DBOS's own application version is pinned (`dbosApplicationVersion`), so every worker recovers every pending session; whether the code
 *   may recover a session is decided by the driver's code fingerprint, which refuses a changed one with
 *   `DurableCodeChangedError` (the workflow then ends in ERROR, once, instead of being retried).
 * - Stream events and emitted messages reach `onItem` in the worker running the session (a side channel: they
 *   are not journaled). Other processes read a session through `exportSessionLog`.
 */
import { randomUUID } from 'node:crypto';
import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import { loadDbosModule, loadDbos, type Dbos } from './load-dbos.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { RecordTarget } from '../replay/session-recorder.ts';
import { durableQuery, type DurableQueryOptions } from '../durable/durable-query.ts';
import { exportDurableSessionLog, type ExportedSession } from '../durable/export-session-log.ts';
import { expandGroups, GroupCommitJournal } from '../durable/group-commit-journal.ts';
import type { Journal, JournalEntry } from '../durable/journal.ts';
import { openFleetRegistry, type FleetRegistry } from './fleet-registry.ts';

/**
 * DBOS's application version of every turnloop session of an application (see the invariants). DBOS wants
 * version names unique across the applications sharing a system database, so the application's name is in it.
 */
export function dbosApplicationVersion(appName: string): string {
  return `${appName}/turnloop-durable-1`;
}
/** The DBOS workflow name of a session (a client enqueues it by name). */
export const SESSION_WORKFLOW = 'turnloop.session';
/** The queue a fleet's sessions wait in (DBOS wants queue names unique across the applications of a database). */
export function sessionQueue(appName: string): string {
  return `${appName}.sessions`;
}

export type SessionOptions = Omit<DurableQueryOptions, 'journal' | 'signal'>;

export interface DbosSessionsOptions {
  /** The Postgres database DBOS keeps its state in (created if missing). */
  systemDatabaseUrl: string;
  /** Scopes this application's sessions in the database. Default 'turnloop'. */
  appName?: string;
  /**
   * This worker's identity. Alone: a worker launched with a dead worker's id recovers that worker's sessions
   * (default 'turnloop-worker'). In a fleet: unique per process (default a new random id); dead workers' sessions
   * are adopted by the live ones instead.
   */
  executorId?: string;
  /** The query options of a session, from its id and the JSON input it was started with (same on every worker). */
  session: (start: { sessionId: string; input: unknown }) => SessionOptions;
  /** Every item a session yields on this worker (stream events included), as it happens. */
  onItem?: (sessionId: string, item: QueryItem) => void;
  /** DBOS's own log level. Default 'error'. */
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  /** How often DBOS may start a session's recovery before giving up on it. Default 5. */
  maxRecoveryAttempts?: number;
  /**
   * Create and migrate DBOS's tables on launch (default true). Workers launched at the same time on a new
   * database race on this: migrate once first (`migrateDbosDatabase`) and launch them with false.
   */
  runMigrations?: boolean;
  /** Run as one worker of a fleet: sessions go through a queue, dead workers are adopted, aborts reach anywhere. */
  fleet?: FleetOptions;
}

export interface FleetOptions {
  /** Sessions this worker runs at once. Default 8. */
  workerConcurrency?: number;
  /** Sessions the whole fleet runs at once. Default: no limit. */
  globalConcurrency?: number;
  /** How often this worker beats, and looks for dead workers to adopt. Default 1000 ms. */
  heartbeatMs?: number;
  /** A worker silent this long is dead and its sessions are adopted. Default 10,000 ms; keep it well above any stall. */
  deadAfterMs?: number;
  /** Told each time this worker adopts a dead worker (its id and the sessions re-enqueued). */
  onAdopt?: (deadExecutorId: string, sessionIds: string[]) => void;
  /** Called when this worker finds it was declared dead by the others (it stops running sessions). Default: exit. */
  onDeclaredDead?: () => void;
}

export interface DbosSessions {
  /** Starts a session (a second start of the same id is the same session, not a new one). In a fleet: enqueues it. */
  start(sessionId: string, input?: unknown): Promise<void>;
  /** Waits for the session's end: its Terminal, or the error that ended it. */
  result(sessionId: string): Promise<Terminal>;
  /** DBOS's status of the session: ENQUEUED, PENDING, SUCCESS, ERROR, CANCELLED...; null when unknown. */
  status(sessionId: string): Promise<string | null>;
  /**
   * Aborts a session (the loop's abort: every tool_use still gets its result). Alone: a session running on this
   * worker; resolves false if none. In a fleet: wherever it runs, now or later; resolves true.
   */
  abort(sessionId: string, reason?: string): Promise<boolean>;
  /** The session's journal as recorded so far. */
  journal(sessionId: string): Promise<JournalEntry[]>;
  /** Writes the session, finished or running, as a turnloop session log. */
  exportSessionLog(sessionId: string, target: RecordTarget, input?: unknown): Promise<ExportedSession>;
  /** This worker's executor id. */
  readonly executorId: string;
  shutdown(): Promise<void>;
}

/** Creates DBOS's tables in the database (or brings them up to date), once, before workers launch. */
export async function migrateDbosDatabase(systemDatabaseUrl: string): Promise<void> {
  await (await loadDbos()).migrate(systemDatabaseUrl);
}

/** DBOS steps as a journal: one step (one Postgres commit) per call, named like the entry. */
function dbosSteps(DBOS: Dbos): Journal {
  return { run: (name, work) => DBOS.runStep(work, { name }) };
}

/** The steps a session recorded so far: read through a client, outside the workflow, so the read is not a step. */
export async function recordedSteps(client: DBOSClient, sessionId: string): Promise<JournalEntry[]> {
  const steps = (await client.listWorkflowSteps(sessionId)) ?? [];
  return steps.filter((step) => step.error === null).map((step) => ({ name: step.name, value: step.output }));
}

async function drive(options: DurableQueryOptions, sessionId: string, onItem: DbosSessionsOptions['onItem']): Promise<Terminal> {
  const run = durableQuery(options);
  while (true) {
    const next = await run.next();
    if (next.done) return next.value;
    onItem?.(sessionId, next.value);
  }
}

/**
 * @example
 * const sessions = await launchDbosSessions({ systemDatabaseUrl, session: ({ input }) => ({ prompt: String(input), tools }) });
 * await sessions.start('session-42', 'Fix the bug');
 * const terminal = await sessions.result('session-42');
 */
export async function launchDbosSessions(options: DbosSessionsOptions): Promise<DbosSessions> {
  // Loaded here, not at import: without the optional peer, this says what to install.
  const { DBOS, DBOSClient } = await loadDbosModule();
  const steps = dbosSteps(DBOS);
  const appName = options.appName ?? 'turnloop';
  const fleet = options.fleet;
  const executorId = options.executorId ?? (fleet ? `turnloop-${randomUUID()}` : 'turnloop-worker');
  const registry = fleet ? await openFleetRegistry(options.systemDatabaseUrl, appName) : null;
  const timing = { heartbeatMs: fleet?.heartbeatMs ?? 1000, deadAfterMs: fleet?.deadAfterMs ?? 10_000 };
  if (registry) {
    try {
      await registry.register(executorId, timing.deadAfterMs);
    } catch (error) {
      await registry.close();
      throw error;
    }
  }
  const running = new Map<string, AbortController>();
  // DBOS.launch() starts recovering this worker's pending sessions before it returns: they wait here for the client
  // that reads their recorded steps (created once DBOS's tables exist, after launch).
  let clientReady!: { resolve: (client: DBOSClient) => void; reject: (error: unknown) => void };
  const stepsClient = new Promise<DBOSClient>((resolve, reject) => (clientReady = { resolve, reject }));
  stepsClient.catch(() => undefined); // launch itself reports the failure
  const workflow = DBOS.registerWorkflow(
    async (sessionId: string, input: unknown): Promise<Terminal> => {
      const controller = new AbortController();
      running.set(sessionId, controller);
      try {
        // An abort requested while the session waited in the queue, or ran on a worker that died.
        const requested = await registry?.abortOf(sessionId);
        if (requested != null) controller.abort(requested);
        const sessionOptions = options.session({ sessionId, input });
        const journal = new GroupCommitJournal(steps, await recordedSteps(await stepsClient, sessionId));
        return await drive({ ...sessionOptions, journal, signal: controller.signal }, sessionId, options.onItem);
      } finally {
        running.delete(sessionId);
      }
    },
    { name: SESSION_WORKFLOW, maxRecoveryAttempts: options.maxRecoveryAttempts ?? 5 },
  );
  DBOS.setConfig({
    name: appName,
    systemDatabaseUrl: options.systemDatabaseUrl,
    executorID: executorId,
    applicationVersion: dbosApplicationVersion(appName),
    logLevel: options.logLevel ?? 'error',
    enableOTLP: false,
    tracingEnabled: false,
    addContextMetadata: false,
    runMigrations: options.runMigrations ?? true,
  });
  try {
    await DBOS.launch();
    clientReady.resolve(await DBOSClient.create({ systemDatabaseUrl: options.systemDatabaseUrl, applicationName: appName }));
  } catch (error) {
    clientReady.reject(error);
    await registry?.close(); // its pool would keep the process up
    throw error;
  }
  // The queue's limits live in the database: the last worker launched sets them for the whole fleet.
  const queue = fleet
    ? await DBOS.registerQueue(sessionQueue(appName), {
        workerConcurrency: fleet.workerConcurrency ?? 8,
        ...(fleet.globalConcurrency !== undefined ? { globalConcurrency: fleet.globalConcurrency } : {}),
        minPollingIntervalMs: 100,
        onConflict: 'always_update',
      })
    : null;
  const stopFleet = registry && fleet ? await runFleetDuties(DBOS, registry, executorId, fleet, timing, running, sessionQueue(appName)) : null;

  const journal = async (sessionId: string): Promise<JournalEntry[]> => expandGroups(await recordedSteps(await stepsClient, sessionId));
  const inputOf = async (sessionId: string): Promise<unknown> => (await DBOS.getWorkflowStatus(sessionId))?.input?.[1];

  return {
    executorId,
    async start(sessionId, input = null) {
      await DBOS.startWorkflow(workflow, { workflowID: sessionId, ...(queue ? { queueName: queue.name } : {}) })(sessionId, input);
    },
    result: (sessionId) => DBOS.retrieveWorkflow<Terminal>(sessionId).getResult(),
    status: async (sessionId) => (await DBOS.getWorkflowStatus(sessionId))?.status ?? null,
    async abort(sessionId, reason = 'abort') {
      if (registry) {
        await registry.requestAbort(sessionId, reason);
        return true;
      }
      const controller = running.get(sessionId);
      controller?.abort(reason);
      return controller !== undefined;
    },
    journal,
    async exportSessionLog(sessionId, target, input) {
      const entries = await journal(sessionId);
      const given = input === undefined ? await inputOf(sessionId) : input;
      return exportDurableSessionLog(entries, options.session({ sessionId, input: given }), target);
    },
    async shutdown() {
      await stopFleet?.();
      await DBOS.shutdown();
      await (await stepsClient).destroy();
      await registry?.close();
    },
  };
}

/**
 * A fleet worker's background duties: beat, adopt the dead, and abort what is aborted anywhere. Returns the stop
 * function. See `fleet-registry.ts` for why a session never runs on two workers at once.
 */
async function runFleetDuties(
  DBOS: Dbos,
  registry: FleetRegistry,
  me: string,
  fleet: FleetOptions,
  timing: { heartbeatMs: number; deadAfterMs: number },
  running: Map<string, AbortController>,
  queueName: string,
): Promise<() => Promise<void>> {
  const stopListening = await registry.listenForAborts((sessionId, reason) => running.get(sessionId)?.abort(reason));
  let stopped = false;
  const adopt = async (dead: string) => {
    const executorIds = await registry.lineageOf(dead);
    const pending = await DBOS.listWorkflows({ status: 'PENDING', executorId: executorIds, workflowName: SESSION_WORKFLOW });
    const ids = pending.map((status) => status.workflowID);
    if (ids.length > 0) await DBOS.resumeWorkflows(ids, { queueName });
    fleet.onAdopt?.(dead, ids);
  };
  // Adoptions run beside the heartbeat loop: their wait must not silence this worker (a claim of several dead
  // workers would otherwise get the adopter declared dead in turn).
  const adoptions = new Set<Promise<void>>();
  const adoptAll = (claimed: string[]) => {
    const adoption = (async () => {
      // Give a worker that was only stalled two heartbeats to see the claim and stop before its sessions move.
      await sleep(timing.heartbeatMs * 2);
      for (const dead of claimed) {
        // A failed re-enqueue (a lost connection, say) gives the claim back: a later tick claims it again.
        await adopt(dead).catch(() => registry.releaseClaim(dead, me).catch(() => undefined));
      }
    })().finally(() => adoptions.delete(adoption));
    adoptions.add(adoption);
  };
  const tick = async () => {
    if (!(await registry.beat(me))) {
      stopped = true;
      for (const controller of running.values()) controller.abort('declared dead by the fleet');
      (fleet.onDeclaredDead ?? (() => process.exit(75)))();
      return;
    }
    const claimed = await registry.claimDead(me, timing.deadAfterMs);
    if (claimed.length > 0) adoptAll(claimed);
  };
  const loop = (async () => {
    while (!stopped) {
      await tick().catch(() => undefined); // a lost connection: try again on the next beat
      if (!stopped) await sleep(timing.heartbeatMs);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await Promise.all(adoptions);
    await stopListening();
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
