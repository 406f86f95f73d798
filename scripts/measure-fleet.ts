/**
 * The fleet's scaling table in docs/durable.md ("A fleet, measured"): the fleet demo with 1, 2 and 4 workers and no
 * kills, on one temporary Postgres. Prints one JSON line per run.
 *
 * Run: npx tsx scripts/measure-fleet.ts [runs] [sessions per worker at once] [model latency ms] [sessions] [turns]
 * e.g. npx tsx scripts/measure-fleet.ts 1 8 200 48 10
 */
import { loadavg } from 'node:os';
import { runFleetDemo } from '../src/dbos/fleet-demo.ts';
import { startTempPostgres } from '../src/dbos/temp-postgres.ts';

const [runs = 1, workerConcurrency = 8, modelDelayMs = 200, sessions = 48, turns = 10] = process.argv.slice(2).map(Number);
const postgres = await startTempPostgres();
try {
  for (const workers of [1, 2, 4]) {
    for (let run = 0; run < runs; run++) {
      const load = loadavg()[0].toFixed(1);
      const result = await runFleetDemo({ workers, sessions, turns, modelDelayMs, workerConcurrency, postgresUrl: postgres.url });
      const { sessionsPerMinute, wallMs, msPerTurn, commitsPerTurn, completed } = result;
      console.log(JSON.stringify({ workers, workerConcurrency, modelDelayMs, load, sessionsPerMinute, wallMs, msPerTurn, commitsPerTurn, completed }));
    }
  }
} finally {
  await postgres.stop();
}
