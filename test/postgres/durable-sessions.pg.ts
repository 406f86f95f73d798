/**
 * Durable sessions on a real Postgres (started here from Debian's binaries, on 127.0.0.1) with DBOS, in real
 * worker processes killed with SIGKILL: at three points of a 20-turn session, two sessions on two workers at
 * once, and a recovery under changed code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSessionOptions, readToolLog } from '../../src/durable/demo-session.ts';
import { MemoryJournal, runDurableQuery } from '../../src/durable/index.ts';
import type { DemoWorkerConfig } from '../../src/dbos/demo-worker.ts';
import { migrateDbosDatabase } from '../../src/dbos/dbos-sessions.ts';
import { runDurableDemo, runWorker } from '../../src/dbos/durable-demo.ts';
import { startTempPostgres, type TempPostgres } from '../../src/dbos/temp-postgres.ts';
import { replay } from '../../src/replay/replay.ts';
import { main } from '../../src/cli/main.ts';

const TURNS = 20;
let pg: TempPostgres;
let dir: string;

beforeAll(async () => {
  pg = await startTempPostgres();
  dir = mkdtempSync(join(tmpdir(), 'turnloop-pg-test-'));
});
afterAll(async () => {
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a worker SIGKILLed mid-session; a second worker recovers it', () => {
  for (const [during, turn] of [['model', 7], ['tool', 9], ['between', 14]] as const) {
    it(`killed during ${during === 'between' ? 'the gap between two steps' : `a ${during} call`} at turn ${turn}`, async () => {
      const result = await runDurableDemo({ postgresUrl: pg.url, killAt: turn, killDuring: during, dir: mkdtempSync(join(dir, `${during}-`)) });
      expect(result.killedAt).toEqual({ turn, during });
      expect(result.completed).toBe(true);
      expect(result.toolLogLines).toBe(TURNS);
      expect(result.distinctToolLogLines).toBe(TURNS);
      expect(readToolLog(result.toolLog).map((line) => line.split(' ')[1])).toEqual(Array.from({ length: TURNS }, (_, i) => String(i + 1)));
      // The model call in flight at the kill is the only one paid for twice.
      expect(result.modelCalls).toBe(TURNS + 1 + (during === 'model' ? 1 : 0));
      expect(result.sameAsUninterrupted).toBe(true);
      expect(result.recoveryMs).toBeGreaterThan(0);
    });
  }
});

function workerConfig(sessionId: string, overrides: Partial<DemoWorkerConfig> = {}): DemoWorkerConfig {
  const files = { toolLog: join(dir, `${sessionId}.tool.log`), modelLog: join(dir, `${sessionId}.model.log`), sessionLog: join(dir, `${sessionId}.jsonl`) };
  return {
    databaseUrl: pg.url, appName: 'turnloop-test', executorId: `executor-${sessionId}`, sessionId, turns: TURNS,
    ...files, start: true, modelDelayMs: 2, toolDelayMs: 2, ...overrides,
  };
}

async function referenceTranscript(sessionId: string) {
  const { items, terminal } = await runDurableQuery({
    ...demoSessionOptions({ sessionId, turns: TURNS, toolLog: join(dir, `${sessionId}.reference.log`) }),
    journal: new MemoryJournal(),
  });
  return { emitted: items.filter((item) => item.type !== 'stream_event' && item.type !== 'request_start'), terminal };
}

describe('two sessions on two workers at once', () => {
  it('each completes with its own 20 lines while the other worker is killed and recovered', async () => {
    // Two workers launching at once must not both migrate DBOS's tables: that is done once, first.
    await migrateDbosDatabase(pg.url);
    const a = workerConfig('concurrent-a', { migrated: true });
    const b = workerConfig('concurrent-b', { migrated: true });
    for (const config of [a, b]) writeFileSync(config.toolLog, '');
    const [first, other] = await Promise.all([runWorker({ ...a, holdAt: { phase: 'tool', turn: 6 } }, true), runWorker(b, false)]);
    expect(first.killed, JSON.stringify(first)).toBe(true);
    expect(other.last?.event).toBe('done');
    const recovered = await runWorker({ ...a, start: false }, false);
    expect(recovered.last?.event, recovered.stderr).toBe('done');
    for (const config of [a, b]) {
      const lines = readToolLog(config.toolLog);
      expect(new Set(lines).size).toBe(TURNS);
      expect(lines).toHaveLength(TURNS);
      expect(lines.every((line) => line.includes(`toolu_demo_`))).toBe(true);
      const replayed = replay(config.sessionLog as string);
      const reference = await referenceTranscript(config.sessionId);
      expect(replayed.emitted).toEqual(reference.emitted);
      expect(replayed.terminal).toEqual(reference.terminal);
    }
  });
});

describe('a code change between crash and recovery', () => {
  it('is refused with a clear error, once, and the session is not retried', async () => {
    const config = workerConfig('code-change');
    writeFileSync(config.toolLog, '');
    const crashed = await runWorker({ ...config, holdAt: { phase: 'model', turn: 3 } }, true);
    expect(crashed.killed, JSON.stringify(crashed)).toBe(true);
    const refused = await runWorker({ ...config, start: false, codeVersion: 'v2' }, false);
    expect(refused.last?.event).toBe('error');
    expect(refused.last?.message).toMatch(/cannot recover this durable run: the code changed since it was recorded \(codeVersion was '', is now 'v2'\)/);
    // A later worker (same executor, still the changed code) finds nothing to recover: the session ended in ERROR.
    const later = await runWorker({ ...config, start: false, codeVersion: 'v2', statusOnly: true }, false);
    expect(later.last).toEqual({ event: 'status', status: 'ERROR' });
    expect(readToolLog(config.toolLog)).toHaveLength(2);
  });
});

describe('npx turnloop durable-demo --json', () => {
  it('starts its own temporary Postgres, kills, recovers and prints one JSON object', async () => {
    let out = '';
    const io = { stdout: { write: (text: string) => ((out += text), true), isTTY: false }, stderr: { write: () => true }, env: {}, cwd: process.cwd() };
    expect(await main(['durable-demo', '--kill-at', '12', '--kill-during', 'between', '--json'], io)).toBe(0);
    const result = JSON.parse(out) as Record<string, unknown>;
    expect(result).toMatchObject({ completed: true, modelCalls: TURNS + 1, sameAsUninterrupted: true, postgres: 'temporary', toolLogLines: TURNS });
    expect(readToolLog(result.toolLog as string)).toHaveLength(TURNS);
    expect(replay(result.sessionLog as string).terminal?.reason).toBe('completed');
  });
});
