/**
 * One worker process of `turnloop durable-demo`: launches DBOS sessions with the demo session, optionally starts
 * the session, waits for it to end, exports its session log, and exits. The DBOS launch itself recovers what a
 * killed worker with the same executor id left pending.
 *
 * It talks to its parent in JSON lines on stdout: `{"event":"phase","phase","turn"}` as work starts, `{"event":
 * "holding",...}` when it reached the point it was told to be killed at (it then waits there), `{"event":"done",
 * "terminal","recoveredInMs"}` at the end, `{"event":"error","message"}` on failure (`{"event":"status"}` with
 * `statusOnly`).
 */
import { runAsWorkerScript, say } from './worker-script.ts';
import { launchDbosSessions } from './dbos-sessions.ts';
import { demoSessionOptions } from '../durable/demo-session.ts';

export type KillPhase = 'model' | 'tool' | 'between';

export interface DemoWorkerConfig {
  databaseUrl: string;
  appName: string;
  executorId: string;
  sessionId: string;
  turns: number;
  toolLog: string;
  modelLog: string;
  sessionLog?: string;
  /** Start the session (the first worker); otherwise only recover and wait. */
  start: boolean;
  /** Announce and wait here, to be killed. */
  holdAt?: { phase: KillPhase; turn: number };
  modelDelayMs?: number;
  toolDelayMs?: number;
  /** The session's `codeVersion` (a different one on recovery stands for changed code). */
  codeVersion?: string;
  /** Only launch (recovering what is pending), report the session's status, and exit. */
  statusOnly?: boolean;
  /** The database is migrated already (several workers launch at once). */
  migrated?: boolean;
}

const HOLD_MS = 60_000;


function holdsAt(config: DemoWorkerConfig, phase: KillPhase, turn: number): boolean {
  return config.holdAt?.phase === phase && config.holdAt.turn === turn;
}

export async function runDemoWorker(config: DemoWorkerConfig): Promise<void> {
  const launchedAt = performance.now();
  let firstLiveWork: number | null = null;
  const session = demoSessionOptions({
    sessionId: config.sessionId,
    turns: config.turns,
    toolLog: config.toolLog,
    modelLog: config.modelLog,
    modelDelayMs: config.modelDelayMs,
    toolDelayMs: config.toolDelayMs,
    codeVersion: config.codeVersion,
    onPhase: async (phase, turn) => {
      firstLiveWork ??= performance.now();
      say({ event: 'phase', phase, turn });
      if (holdsAt(config, phase, turn)) {
        say({ event: 'holding', phase, turn });
        await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      }
    },
  });
  const sessions = await launchDbosSessions({
    systemDatabaseUrl: config.databaseUrl,
    appName: config.appName,
    executorId: config.executorId,
    runMigrations: config.migrated !== true,
    session: () => session,
    onItem: (_sessionId, item) => {
      // Between steps: a tool's result was journaled and fed; the next model call has not started.
      if (item.type !== 'user' || !Array.isArray(item.message.content)) return;
      const block = item.message.content[0];
      const turn = block?.type === 'tool_result' ? Number(/toolu_demo_(\d+)/.exec(block.tool_use_id)?.[1]) : NaN;
      if (holdsAt(config, 'between', turn)) {
        say({ event: 'holding', phase: 'between', turn });
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
      }
    },
  });
  try {
    if (config.statusOnly) {
      say({ event: 'status', status: await sessions.status(config.sessionId) });
      return;
    }
    if (config.start) await sessions.start(config.sessionId);
    const terminal = await sessions.result(config.sessionId);
    const done = performance.now();
    if (config.sessionLog) await sessions.exportSessionLog(config.sessionId, config.sessionLog);
    say({
      event: 'done',
      terminal,
      ...(config.start ? {} : { recoveredInMs: Math.round(((firstLiveWork ?? done) - launchedAt) * 10) / 10 }),
    });
  } finally {
    await sessions.shutdown();
  }
}

runAsWorkerScript<DemoWorkerConfig>(import.meta.url, runDemoWorker);
