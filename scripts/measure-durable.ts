/**
 * Measures what durability costs (the figures in docs/durable.md): milliseconds per turn of the demo session
 * in-process with `query()`, with the durable driver over an in-memory journal, and over DBOS on a temporary
 * Postgres (127.0.0.1, fsync on), plus what a recovery costs: replaying a whole journal in-process, and a DBOS
 * worker's launch-to-first-live-step after a SIGKILL at several turns.
 *
 * Run: npx tsx scripts/measure-durable.ts [turns]   (needs Debian's postgresql; prints a Markdown table)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoopToEnd } from '../src/drivers/run-loop.ts';
import { demoSessionOptions } from '../src/durable/demo-session.ts';
import { GroupCommitJournal, MemoryJournal, runDurableQuery } from '../src/durable/index.ts';
import { launchDbosSessions } from '../src/dbos/dbos-sessions.ts';
import { runDurableDemo } from '../src/dbos/durable-demo.ts';
import { startTempPostgres } from '../src/dbos/temp-postgres.ts';

const turns = Number(process.argv[2] ?? 50);
const rounds = 5;
const dir = mkdtempSync(join(tmpdir(), 'turnloop-measure-'));
let n = 0;
const options = (sessionId = `measure-${++n}`) => demoSessionOptions({ sessionId, turns, toolLog: join(dir, `${sessionId}.log`) });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function perTurn(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await timed(work));
  return median(times) / (turns + 1);
}

const rows: Array<[string, string]> = [];
const row = (name: string, value: string) => {
  rows.push([name, value]);
  console.error(`${name}: ${value}`);
};
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1));

const inProcess = await perTurn(() => {
  const { idSeed: _seed, ...plain } = options();
  return runLoopToEnd(plain);
});
row('`query()` in-process, ms per turn', fmt(inProcess));

let journalLength = 0;
let journalBytes = 0;
const memory = await perTurn(async () => {
  const journal = new MemoryJournal();
  await runDurableQuery({ ...options(), journal });
  journalLength = journal.entries.length;
  journalBytes = JSON.stringify(journal.entries).length;
});
row('durable driver, in-memory journal, ms per turn', fmt(memory));
row('journal entries per turn / bytes per turn', `${(journalLength / (turns + 1)).toFixed(2)} / ${Math.round(journalBytes / (turns + 1))}`);
// What turnloop/dbos commits: the same entries grouped (local ones ride in the next commit), one DBOS step each.
const steps = new MemoryJournal();
await runDurableQuery({ ...options(), journal: new GroupCommitJournal(steps, []) });
const commitsPerTurn = steps.entries.length / (turns + 1);
row('commits per turn (DBOS steps, entries grouped)', commitsPerTurn.toFixed(2));

const recorded = new MemoryJournal();
const session = options();
await runDurableQuery({ ...session, journal: recorded });
const replayTimes: number[] = [];
for (let i = 0; i < rounds; i++) replayTimes.push(await timed(() => runDurableQuery({ ...session, journal: new MemoryJournal(recorded.entries) })));
row(`recovery in-process: replaying all ${recorded.entries.length} entries, ms per entry`, fmt(median(replayTimes) / recorded.entries.length));

const pg = await startTempPostgres();
try {
  const sessions = await launchDbosSessions({ systemDatabaseUrl: pg.url, appName: 'turnloop-measure', session: ({ sessionId }) => options(sessionId) });
  const ids: string[] = [];
  const dbos = await perTurn(async () => {
    const id = `dbos-${ids.length}`;
    ids.push(id);
    await sessions.start(id);
    await sessions.result(id);
  });
  row('durable driver on DBOS + Postgres (127.0.0.1, fsync on), ms per turn', fmt(dbos));
  row('DBOS overhead over `query()`, ms per turn', fmt(dbos - inProcess));
  row('DBOS overhead per commit (a step: its checkpoint committed to Postgres), ms', fmt((dbos - memory) / commitsPerTurn));
  const exportTimes: number[] = [];
  for (const id of ids.slice(0, rounds)) exportTimes.push(await timed(() => sessions.exportSessionLog(id, join(dir, `${id}.jsonl`))));
  row(`export of a finished ${turns}-turn session as a session log, ms`, fmt(median(exportTimes)));
  await sessions.shutdown();
  for (const killAt of [2, 10, 19]) {
    const result = await runDurableDemo({ postgresUrl: pg.url, killAt, killDuring: 'between', dir: mkdtempSync(join(dir, 'demo-')) });
    row(`recovery after a SIGKILL at turn ${killAt} of 20: second worker's launch to first live step, ms`, String(result.recoveryMs));
  }
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`| measure (${turns}-turn demo session, median of ${rounds}) | value |\n|---|---|`);
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
process.exit(0);
