/**
 * The fleet demo: W worker processes on one Postgres, S scripted sessions on the fleet's queue, and (with chaos)
 * workers SIGKILLed at random moments — never all at once — each replaced by a worker under a new executor id.
 * It waits until every session has ended, then checks each against the same session run without a fleet.
 *
 * What it measures, and from where (nothing is taken from the workers' word):
 * - `lost`: sessions not ended when the wait runs out (DBOS's status rows);
 * - `toolRunsDuplicated`: side effects applied twice, from the tools' own files (a line per applied effect);
 *   `toolReRuns`: executions repeated after a kill inside a tool's window (the idempotent tool dedupes them);
 * - `sameAsUninterrupted`: each session's log, exported from its journal in Postgres, replayed (hash-verified)
 *   to the transcript and terminal of an in-process run of the same session;
 * - `commitsPerTurn`: DBOS steps (one Postgres commit each) per turn, a turn being one model call and the tools it
 *   asked for: a session of T tool turns has T + 1 model calls (its last one answers), and its stop hooks;
 * - `adoptions`: the fleet's own claims on dead workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { readToolLog } from '../durable/demo-session.ts';
import { runDurableQuery } from '../durable/durable-query.ts';
import { exportDurableSessionLog } from '../durable/export-session-log.ts';
import { MemoryJournal } from '../durable/journal.ts';
import { replay } from '../replay/replay.ts';
import { migrateDbosDatabase } from './dbos-sessions.ts';
import { workerCommand } from './durable-demo.ts';
import { connectFleet, type FleetClient } from './fleet-client.ts';
import { fleetDemoSession, type FleetWorkerConfig } from './fleet-worker.ts';
import { startTempPostgres, type TempPostgres } from './temp-postgres.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface FleetDemoOptions {
  workers: number;
  sessions: number;
  turns?: number;
  /** Kill random workers while the sessions run. */
  chaos?: boolean;
  /** How many kills with chaos. Default: as many as workers. */
  kills?: number;
  /** Seeds the chaos (which worker, when), so a run can be repeated. */
  seed?: number;
  /** Simulated latency of each model call. Default 50 ms. */
  modelDelayMs?: number;
  workerConcurrency?: number;
  heartbeatMs?: number;
  deadAfterMs?: number;
  /** Give up waiting after this long; sessions not ended by then count as lost. Default 10 minutes. */
  timeoutMs?: number;
  postgresUrl?: string;
  dir?: string;
}

export interface FleetDemoResult {
  workers: number;
  sessions: number;
  turns: number;
  completed: number;
  lost: number;
  toolRunsDuplicated: number;
  toolReRuns: number;
  sameAsUninterrupted: number;
  kills: number;
  adoptions: number;
  wallMs: number;
  sessionsPerMinute: number;
  commitsPerTurn: number;
  /** Median over sessions of (completed − dequeued) / turns. */
  msPerTurn: number;
  modelDelayMs: number;
  postgres: 'temporary' | 'given';
  dir: string;
}

const ENDED = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A small seeded generator (mulberry32): the chaos of a run is repeatable from its seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Worker {
  id: string;
  child: ChildProcess;
  exited: Promise<void>;
}

function startWorker(config: FleetWorkerConfig): Promise<Worker> {
  const { command, args } = workerCommand('fleet-worker');
  const child = spawn(command, [...args, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DBOS__CLOUD: '' } });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: { event?: string; message?: string };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return;
      }
      if (message.event === 'ready') resolve({ id: config.executorId, child, exited });
      if (message.event === 'error') reject(new TurnloopError('DEMO_WORKER_FAILED', `fleet worker ${config.executorId}: ${message.message}`));
    });
    void exited.then(() => reject(new TurnloopError('DEMO_WORKER_FAILED', `fleet worker ${config.executorId} exited before it was ready: ${stderr.trim()}`)));
  });
}

async function waitForEnd(client: FleetClient, ids: string[], deadline: number): Promise<Map<string, string | null>> {
  const statuses = new Map<string, string | null>();
  while (true) {
    for (const id of ids) if (!ENDED.has(statuses.get(id) ?? '')) statuses.set(id, await client.status(id));
    if (ids.every((id) => ENDED.has(statuses.get(id) ?? '')) || Date.now() > deadline) return statuses;
    await sleep(200);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
}

export async function runFleetDemo(options: FleetDemoOptions): Promise<FleetDemoResult> {
  const turns = options.turns ?? 20;
  const modelDelayMs = options.modelDelayMs ?? 50;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'turnloop-fleet-demo-'));
  const random = seededRandom(options.seed ?? 1);
  const run = randomUUID().slice(0, 8);
  const temp: TempPostgres | null = options.postgresUrl ? null : await startTempPostgres();
  const databaseUrl = options.postgresUrl ?? (temp as TempPostgres).url;
  const live: Worker[] = [];
  let client: FleetClient | null = null;
  try {
    await migrateDbosDatabase(databaseUrl);
    const workerConfig = (): FleetWorkerConfig => ({
      databaseUrl, appName: `turnloop-fleet-${run}`, executorId: `worker-${randomUUID().slice(0, 8)}`, dir, turns,
      workerConcurrency: options.workerConcurrency ?? 8, modelDelayMs, toolDelayMs: 5,
      heartbeatMs: options.heartbeatMs ?? 250, deadAfterMs: options.deadAfterMs ?? 2000,
    });
    const spawnWorker = async () => live.push(await startWorker(workerConfig()));
    for (let i = 0; i < options.workers; i++) await spawnWorker();
    client = await connectFleet({ systemDatabaseUrl: databaseUrl, appName: `turnloop-fleet-${run}` });
    const ids = Array.from({ length: options.sessions }, (_, i) => `fleet-${run}-${String(i + 1).padStart(3, '0')}`);
    const started = Date.now();
    for (const id of ids) await client.start(id);

    // The chaos: kill a random live worker (never the last one) at random moments, and start a new one.
    let kills = 0;
    const plannedKills = options.chaos ? (options.kills ?? options.workers) : 0;
    const deadline = started + (options.timeoutMs ?? 600_000);
    let ended = false;
    const chaos = (async () => {
      while (kills < plannedKills) {
        await sleep(1000 + random() * 3000);
        if (ended) break; // a kill after every session ended would test nothing
        if (live.length < 2) continue;
        const victim = live.splice(Math.floor(random() * live.length), 1)[0];
        victim.child.kill('SIGKILL');
        await victim.exited;
        kills += 1;
        await spawnWorker();
      }
    })();
    const statuses = await waitForEnd(client, ids, deadline);
    ended = true;
    mkdirSync(join(dir, 'reference'));
    const wallMs = Date.now() - started;
    await chaos;

    // Check every session against an in-process run of the same session.
    let sameAsUninterrupted = 0;
    let commits = 0;
    const msPerTurn: number[] = [];
    let toolRunsDuplicated = 0;
    let toolReRuns = 0;
    for (const id of ids) {
      const session = fleetDemoSession({ dir, turns, modelDelayMs, toolDelayMs: 5 }, id);
      const applied = readToolLog(join(dir, `${id}.tool.log`));
      toolRunsDuplicated += applied.length - new Set(applied).size;
      const executed = readToolLog(join(dir, `${id}.exec.log`));
      toolReRuns += executed.length - new Set(executed).size;
      const entries = await client.journal(id);
      commits += await client.commits(id);
      const times = await client.times(id);
      if (times?.completedAt !== undefined && times.dequeuedAt !== undefined) msPerTurn.push((times.completedAt - times.dequeuedAt) / turns);
      if (statuses.get(id) !== 'SUCCESS') continue;
      const logPath = join(dir, `${id}.jsonl`);
      await exportDurableSessionLog(entries, session, logPath);
      const reference = await runDurableQuery({
        ...fleetDemoSession({ dir: join(dir, 'reference'), turns, modelDelayMs: 0, toolDelayMs: 0 }, id),
        journal: new MemoryJournal(),
      });
      const replayed = replay(logPath);
      const referenceMessages = reference.items.filter((item) => item.type !== 'stream_event' && item.type !== 'request_start');
      if (isDeepStrictEqual(replayed.emitted, referenceMessages) && isDeepStrictEqual(replayed.terminal, reference.terminal)) sameAsUninterrupted += 1;
    }
    const adoptions = await client.adoptions();
    const completed = ids.filter((id) => statuses.get(id) === 'SUCCESS').length;
    return {
      workers: options.workers,
      sessions: ids.length,
      turns,
      completed,
      lost: ids.filter((id) => !ENDED.has(statuses.get(id) ?? '')).length,
      toolRunsDuplicated,
      toolReRuns,
      sameAsUninterrupted,
      kills,
      adoptions,
      wallMs,
      sessionsPerMinute: Math.round((ids.length / wallMs) * 60_000 * 10) / 10,
      commitsPerTurn: Math.round((commits / (ids.length * (turns + 1))) * 100) / 100,
      msPerTurn: Math.round(median(msPerTurn) * 10) / 10,
      modelDelayMs,
      postgres: temp ? 'temporary' : 'given',
      dir,
    };
  } finally {
    for (const worker of live) worker.child.kill('SIGTERM');
    await Promise.race([Promise.all(live.map((worker) => worker.exited)), sleep(10_000)]);
    for (const worker of live) worker.child.kill('SIGKILL');
    await client?.close();
    await temp?.stop();
  }
}
