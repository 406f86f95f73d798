/**
 * A fleet's client: starts, watches and aborts sessions with nothing but the database URL — no DBOS launched, no
 * session code loaded. The workers of the fleet run what it enqueues (`launchDbosSessions({ fleet })`).
 */
import { expandGroups } from '../durable/group-commit-journal.ts';
import type { JournalEntry } from '../durable/journal.ts';
import type { Terminal } from '../data/outcomes.ts';
import { dbosApplicationVersion, recordedSteps, sessionQueue, SESSION_WORKFLOW } from './dbos-sessions.ts';
import { openFleetRegistry } from './fleet-registry.ts';
import { loadDbosModule } from './load-dbos.ts';

export interface FleetClient {
  /** Enqueues a session; any worker of the fleet runs it. A second start of the same id is the same session. */
  start(sessionId: string, input?: unknown): Promise<void>;
  /** DBOS's status of the session (ENQUEUED, PENDING, SUCCESS, ERROR, …), or null when unknown. */
  status(sessionId: string): Promise<string | null>;
  /** Waits for the session's end. */
  result(sessionId: string): Promise<Terminal>;
  /** Aborts the session wherever it runs, now or later (the loop's abort: every tool_use is answered). */
  abort(sessionId: string, reason?: string): Promise<void>;
  /** The session's journal as recorded so far (DBOS's steps). */
  journal(sessionId: string): Promise<JournalEntry[]>;
  /** How many steps (one Postgres commit each) the session recorded. */
  commits(sessionId: string): Promise<number>;
  /** When the session was created, first dequeued and completed (epoch ms), from DBOS's status row. */
  times(sessionId: string): Promise<{ createdAt: number; dequeuedAt?: number; completedAt?: number } | null>;
  /** How many dead workers the fleet has adopted so far. */
  adoptions(): Promise<number>;
  close(): Promise<void>;
}

export async function connectFleet(options: { systemDatabaseUrl: string; appName?: string }): Promise<FleetClient> {
  const appName = options.appName ?? 'turnloop';
  const { DBOSClient } = await loadDbosModule();
  const registry = await openFleetRegistry(options.systemDatabaseUrl, appName);
  const client = await DBOSClient.create({ systemDatabaseUrl: options.systemDatabaseUrl, applicationName: appName });
  return {
    async start(sessionId, input = null) {
      await client.enqueue(
        { queueName: sessionQueue(appName), workflowName: SESSION_WORKFLOW, workflowID: sessionId, appVersion: dbosApplicationVersion(appName) },
        sessionId,
        input,
      );
    },
    status: async (sessionId) => (await client.getWorkflow(sessionId))?.status ?? null,
    result: (sessionId) => client.retrieveWorkflow<Terminal>(sessionId).getResult(),
    journal: async (sessionId) => expandGroups(await recordedSteps(client, sessionId)),
    commits: async (sessionId) => (await recordedSteps(client, sessionId)).length,
    async times(sessionId) {
      const status = await client.getWorkflow(sessionId);
      return status ? { createdAt: status.createdAt, dequeuedAt: status.dequeuedAt, completedAt: status.completedAt } : null;
    },
    abort: (sessionId, reason = 'abort') => registry.requestAbort(sessionId, reason),
    adoptions: () => registry.adoptions(),
    async close() {
      await client.destroy();
      await registry.close();
    },
  };
}
