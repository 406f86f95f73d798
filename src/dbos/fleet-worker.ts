/**
 * One worker process of `turnloop durable-demo --workers W`: a fleet worker (`launchDbosSessions({ fleet })`) that
 * runs whichever demo sessions it dequeues, until SIGTERM (a clean shutdown) or SIGKILL (the chaos).
 *
 * It talks to its parent in JSON lines on stdout: `{"event":"ready","executorId"}` once launched,
 * `{"event":"adopted","dead","sessions"}` for each dead worker it adopts, `{"event":"error","message"}` on failure.
 */
import { join } from 'node:path';
import { runAsWorkerScript, say } from './worker-script.ts';
import { demoSessionOptions } from '../durable/demo-session.ts';
import { launchDbosSessions } from './dbos-sessions.ts';

export interface FleetWorkerConfig {
  databaseUrl: string;
  appName: string;
  executorId: string;
  /** Where each session's tool, execution and model logs go (`<session id>.tool.log`, …). */
  dir: string;
  turns: number;
  workerConcurrency: number;
  modelDelayMs: number;
  toolDelayMs: number;
  heartbeatMs: number;
  deadAfterMs: number;
}

/** The demo session of a fleet: the same for every worker, from the session id alone. */
export function fleetDemoSession(config: Pick<FleetWorkerConfig, 'dir' | 'turns' | 'modelDelayMs' | 'toolDelayMs'>, sessionId: string) {
  return demoSessionOptions({
    sessionId,
    turns: config.turns,
    toolLog: join(config.dir, `${sessionId}.tool.log`),
    executionLog: join(config.dir, `${sessionId}.exec.log`),
    modelLog: join(config.dir, `${sessionId}.model.log`),
    modelDelayMs: config.modelDelayMs,
    toolDelayMs: config.toolDelayMs,
  });
}


export async function runFleetWorker(config: FleetWorkerConfig): Promise<void> {
  const sessions = await launchDbosSessions({
    systemDatabaseUrl: config.databaseUrl,
    appName: config.appName,
    executorId: config.executorId,
    runMigrations: false,
    session: ({ sessionId }) => fleetDemoSession(config, sessionId),
    fleet: {
      workerConcurrency: config.workerConcurrency,
      heartbeatMs: config.heartbeatMs,
      deadAfterMs: config.deadAfterMs,
      onAdopt: (dead, ids) => say({ event: 'adopted', dead, sessions: ids }),
    },
  });
  say({ event: 'ready', executorId: sessions.executorId });
  await new Promise<void>((done) => process.once('SIGTERM', () => done()));
  await sessions.shutdown();
}

runAsWorkerScript<FleetWorkerConfig>(import.meta.url, runFleetWorker);
