/**
 * The durable demo: a 20-turn scripted session run as a DBOS workflow in a worker process, that worker SIGKILLed at
 * turn N (during a model call, during a tool, or between steps), a second worker launched with the same executor
 * id, which recovers the session and finishes it; then the result is checked against a run without a kill.
 *
 * What it proves, and how it is measured (nothing is taken on trust from the workers):
 * - `toolLog` has one line per executed tool effect, deduplicated by idempotency key: exactly `turns` distinct lines;
 * - `modelCalls` counts executed model calls from the model log the workers append to: `turns + 1` unless the kill
 *   fell inside a model call, which is then paid for twice (the one call in flight, see docs/durable.md);
 * - `sameAsUninterrupted`: the session log exported from Postgres replays (hash-verified) to the transcript and
 *   terminal of the same session run without a kill.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { demoSessionOptions, readToolLog } from '../durable/demo-session.ts';
import { runDurableQuery } from '../durable/durable-query.ts';
import { MemoryJournal } from '../durable/journal.ts';
import { replay } from '../replay/replay.ts';
import type { DemoWorkerConfig, KillPhase } from './demo-worker.ts';
import { startTempPostgres, type TempPostgres } from './temp-postgres.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface DurableDemoOptions {
  turns?: number;
  /** The turn to kill the first worker at (1..turns); undefined: no kill. */
  killAt?: number;
  killDuring?: KillPhase;
  /** A running Postgres; without it a temporary one is started (and stopped). */
  postgresUrl?: string;
  /** Where the logs go; default a new temp dir. */
  dir?: string;
  sessionId?: string;
}

export interface DurableDemoResult {
  completed: boolean;
  terminal: string | null;
  toolLog: string;
  toolLogLines: number;
  distinctToolLogLines: number;
  sessionLog: string;
  modelCalls: number;
  sameAsUninterrupted: boolean;
  killedAt: { turn: number; during: KillPhase } | null;
  /** From the recovering worker's launch to its first live work: DBOS launch, recovery, journal replay. */
  recoveryMs: number | null;
  postgres: 'temporary' | 'given';
}

export interface WorkerMessage {
  event: 'phase' | 'holding' | 'done' | 'error' | 'status';
  status?: string | null;
  phase?: KillPhase;
  turn?: number;
  terminal?: { reason: string };
  recoveredInMs?: number;
  message?: string;
}

/** How to start the worker script `name` (a file beside this one) as a process, from the sources or from dist/. */
export function workerCommand(name: 'demo-worker' | 'fleet-worker'): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const worker = join(dirname(here), `${name}${extname(here)}`);
  // From the TypeScript sources the worker needs tsx's loader; from dist/ it is plain JavaScript.
  const loader = extname(here) === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return { command: process.execPath, args: [...loader, worker] };
}

/** Runs one worker process; resolves with its last message once it exited (SIGKILLed when it holds, if asked). */
export function runWorker(config: DemoWorkerConfig, killWhenHolding: boolean): Promise<{ last: WorkerMessage | null; killed: boolean; stderr: string }> {
  const { command, args } = workerCommand('demo-worker');
  const child = spawn(command, [...args, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DBOS__CLOUD: '' } });
  let stderr = '';
  let last: WorkerMessage | null = null;
  let killed = false;
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: WorkerMessage;
    try {
      message = JSON.parse(line) as WorkerMessage;
    } catch {
      return;
    }
    last = message;
    if (message.event === 'holding' && killWhenHolding && child.pid !== undefined) {
      killed = true;
      process.kill(child.pid, 'SIGKILL');
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => resolve({ last, killed, stderr }));
  });
}

export async function runDurableDemo(options: DurableDemoOptions = {}): Promise<DurableDemoResult> {
  const turns = options.turns ?? 20;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'turnloop-durable-demo-'));
  const sessionId = options.sessionId ?? `durable-demo-${randomUUID().slice(0, 8)}`;
  const toolLog = join(dir, 'tool.log');
  const modelLog = join(dir, 'model-calls.log');
  const sessionLog = join(dir, 'session.jsonl');
  for (const file of [toolLog, modelLog, sessionLog]) writeFileSync(file, '');
  const temp: TempPostgres | null = options.postgresUrl ? null : await startTempPostgres();
  try {
    const base: DemoWorkerConfig = {
      databaseUrl: options.postgresUrl ?? (temp as TempPostgres).url,
      appName: 'turnloop-demo',
      executorId: `worker-${sessionId}`,
      sessionId,
      turns,
      toolLog,
      modelLog,
      start: true,
      modelDelayMs: 2,
      toolDelayMs: 2,
    };
    const killedAt = options.killAt === undefined ? null : { turn: options.killAt, during: options.killDuring ?? 'tool' };
    let recoveryMs: number | null = null;
    let outcome = await runWorker({ ...base, sessionLog, ...(killedAt ? { holdAt: { phase: killedAt.during, turn: killedAt.turn } } : {}) }, true);
    if (killedAt && !outcome.killed) throw new TurnloopError('DEMO_WORKER_FAILED', `the first worker never reached turn ${killedAt.turn} (${killedAt.during}): ${outcome.last?.message ?? outcome.stderr.trim()}`);
    if (outcome.killed) {
      outcome = await runWorker({ ...base, start: false, sessionLog }, false);
      recoveryMs = outcome.last?.recoveredInMs ?? null;
    }
    if (outcome.last?.event !== 'done') throw new TurnloopError('DEMO_WORKER_FAILED', `the worker failed: ${outcome.last?.message ?? outcome.stderr.trim()}`);

    const reference = await runDurableQuery({
      ...demoSessionOptions({ sessionId, turns, toolLog: join(dir, 'reference-tool.log') }),
      journal: new MemoryJournal(),
    });
    const replayed = replay(sessionLog);
    const referenceMessages = reference.items.filter((item) => item.type !== 'stream_event' && item.type !== 'request_start');
    const lines = readToolLog(toolLog);
    return {
      completed: replayed.terminal?.reason === 'completed',
      terminal: replayed.terminal?.reason ?? null,
      toolLog,
      toolLogLines: lines.length,
      distinctToolLogLines: new Set(lines).size,
      sessionLog,
      modelCalls: readToolLog(modelLog).length,
      sameAsUninterrupted: isDeepStrictEqual(replayed.emitted, referenceMessages) && isDeepStrictEqual(replayed.terminal, reference.terminal),
      killedAt,
      recoveryMs,
      postgres: temp ? 'temporary' : 'given',
    };
  } finally {
    await temp?.stop();
  }
}
