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
import { loadDbos } from './load-dbos.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { RecordTarget } from '../replay/session-recorder.ts';
import { durableQuery, type DurableQueryOptions } from '../durable/durable-query.ts';
import { exportDurableSessionLog, type ExportedSession } from '../durable/export-session-log.ts';
import type { Journal, JournalEntry } from '../durable/journal.ts';

/**
 * DBOS's application version of every turnloop session of an application (see the invariants). DBOS wants
 * version names unique across the applications sharing a system database, so the application's name is in it.
 */
export function dbosApplicationVersion(appName: string): string {
  return `${appName}/turnloop-durable-1`;
}
const WORKFLOW_NAME = 'turnloop.session';

export type SessionOptions = Omit<DurableQueryOptions, 'journal' | 'signal'>;

export interface DbosSessionsOptions {
  /** The Postgres database DBOS keeps its state in (created if missing). */
  systemDatabaseUrl: string;
  /** Scopes this application's sessions in the database. Default 'turnloop'. */
  appName?: string;
  /** This worker's identity: a worker launched with a dead worker's id recovers that worker's sessions. */
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
}

export interface DbosSessions {
  /** Starts a session (a second start of the same id is the same session, not a new one). */
  start(sessionId: string, input?: unknown): Promise<void>;
  /** Waits for the session's end: its Terminal, or the error that ended it. */
  result(sessionId: string): Promise<Terminal>;
  /** DBOS's status of the session: PENDING, SUCCESS, ERROR, CANCELLED...; null when unknown. */
  status(sessionId: string): Promise<string | null>;
  /** Aborts a session running on this worker (the loop's abort: every tool_use still gets its result). */
  abort(sessionId: string, reason?: string): boolean;
  /** The session's journal as recorded so far. */
  journal(sessionId: string): Promise<JournalEntry[]>;
  /** Writes the session, finished or running, as a turnloop session log. */
  exportSessionLog(sessionId: string, target: RecordTarget, input?: unknown): Promise<ExportedSession>;
  shutdown(): Promise<void>;
}

/** Creates DBOS's tables in the database (or brings them up to date), once, before workers launch. */
export async function migrateDbosDatabase(systemDatabaseUrl: string): Promise<void> {
  await (await loadDbos()).migrate(systemDatabaseUrl);
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
  const DBOS = await loadDbos();
  /** The durable driver's journal over DBOS steps: a step per entry, named like the entry. */
  const dbosJournal: Journal = {
    run: (name, work) => DBOS.runStep(work, { name }),
  };
  const running = new Map<string, AbortController>();
  const workflow = DBOS.registerWorkflow(
    async (sessionId: string, input: unknown): Promise<Terminal> => {
      const controller = new AbortController();
      running.set(sessionId, controller);
      try {
        const sessionOptions = options.session({ sessionId, input });
        return await drive({ ...sessionOptions, journal: dbosJournal, signal: controller.signal }, sessionId, options.onItem);
      } finally {
        running.delete(sessionId);
      }
    },
    { name: WORKFLOW_NAME, maxRecoveryAttempts: options.maxRecoveryAttempts ?? 5 },
  );
  const appName = options.appName ?? 'turnloop';
  DBOS.setConfig({
    name: appName,
    systemDatabaseUrl: options.systemDatabaseUrl,
    executorID: options.executorId ?? 'turnloop-worker',
    applicationVersion: dbosApplicationVersion(appName),
    logLevel: options.logLevel ?? 'error',
    enableOTLP: false,
    tracingEnabled: false,
    addContextMetadata: false,
    runMigrations: options.runMigrations ?? true,
  });
  await DBOS.launch();

  const journal = async (sessionId: string): Promise<JournalEntry[]> => {
    const steps = (await DBOS.listWorkflowSteps(sessionId)) ?? [];
    return steps.filter((step) => step.error === null).map((step) => ({ name: step.name, value: step.output }));
  };
  const inputOf = async (sessionId: string): Promise<unknown> => (await DBOS.getWorkflowStatus(sessionId))?.input?.[1];

  return {
    async start(sessionId, input = null) {
      await DBOS.startWorkflow(workflow, { workflowID: sessionId })(sessionId, input);
    },
    result: (sessionId) => DBOS.retrieveWorkflow<Terminal>(sessionId).getResult(),
    status: async (sessionId) => (await DBOS.getWorkflowStatus(sessionId))?.status ?? null,
    abort(sessionId, reason = 'abort') {
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
    shutdown: () => DBOS.shutdown(),
  };
}
