/**
 * `turnloop durable-demo`: a 20-turn scripted session survives its worker's SIGKILL, on DBOS and Postgres
 * (`src/dbos/durable-demo.ts` does the work; this file parses flags and prints). Exit codes: 0 the session
 * completed with every check passing, 1 a check failed, 2 bad input or no Postgres to be had.
 */
import { EXIT_BAD_INPUT, EXIT_FAILURE_TERMINAL, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { parseFlags, positiveInteger } from './parse-flags.ts';
import { findPostgresBin } from '../../dbos/temp-postgres.ts';

const PHASES = ['model', 'tool', 'between'] as const;

const HELP = `Usage: turnloop durable-demo [--kill-at N] [--kill-during model|tool|between] [--turns T] [--postgres URL] [--json]
       turnloop durable-demo --workers W --sessions S [--chaos] [--kills K] [--seed N] [--model-delay MS] [--per-worker N] [--turns T] [--postgres URL] [--json]

Runs a scripted session of T turns (default 20; an offline model, and a tool that appends one line per
execution to a file) as a DBOS workflow in a worker process, SIGKILLs that worker at turn N (default 9) during
a model call, a tool call (default) or between two steps, then starts a second worker that recovers the session
from Postgres and finishes it. Checks the tool log (exactly T distinct lines), counts the model calls paid for,
exports the session log (turnloop replay / viz read it) and compares its transcript with a run without a kill.

Without --postgres it starts a temporary PostgreSQL on 127.0.0.1 (Debian's postgresql package; stopped at the
end). Nothing leaves the machine.

With --workers: a fleet. W worker processes share one Postgres; S sessions of T turns go on the fleet's queue
(each model call takes --model-delay ms, default 50, so that concurrency matters). With --chaos, random workers are
SIGKILLed at random moments (never all at once; K kills, default W), each replaced by a worker under a new id; the
live workers adopt a dead one's sessions. Checks: no session lost, no tool effect applied twice (from the tool's own
files), every transcript equal to the same session run without a fleet.

Options:
  --workers W        run a fleet of W worker processes (see above)
  --sessions S       sessions on the fleet's queue (default 24)
  --chaos            kill random workers while the sessions run
  --kills K          how many kills with --chaos (default W)
  --seed N           seeds which worker is killed when (default 1)
  --model-delay MS   simulated latency of each model call in the fleet (default 50)
  --per-worker N     sessions one worker runs at once (default 8)
  --kill-at N        the turn to kill the first worker at (1..T); 0 = no kill
  --kill-during P    model | tool | between (default tool)
  --turns T          turns of the session (default 20)
  --postgres URL     use this running Postgres (postgresql://user@host:port/db)
  --json             one JSON object: completed, toolLog, sessionLog, modelCalls, sameAsUninterrupted, ...
                     (a fleet: sessions, completed, lost, toolRunsDuplicated, sameAsUninterrupted, kills, adoptions,
                     wallMs, sessionsPerMinute, commitsPerTurn, msPerTurn)`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('durable-demo', args, {
    'kill-at': { type: 'string' },
    'kill-during': { type: 'string' },
    turns: { type: 'string' },
    postgres: { type: 'string' },
    json: { type: 'boolean', default: false },
    workers: { type: 'string' },
    sessions: { type: 'string' },
    chaos: { type: 'boolean', default: false },
    kills: { type: 'string' },
    seed: { type: 'string' },
    'model-delay': { type: 'string' },
    'per-worker': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (see turnloop durable-demo --help)`);
  const turns = positiveInteger('turns', values.turns) ?? 20;
  const workers = positiveInteger('workers', values.workers);
  if (workers === undefined) {
    for (const flag of ['sessions', 'kills', 'seed', 'model-delay', 'per-worker', 'chaos'] as const) {
      if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`--${flag} needs --workers (a fleet); see turnloop durable-demo --help`);
    }
  } else {
    for (const flag of ['kill-at', 'kill-during'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} is for a single worker; a fleet is killed at random with --chaos`);
    }
  }
  if (values.postgres !== undefined && !/^postgres(ql)?:\/\//.test(values.postgres)) throw new UsageError(`--postgres expects a postgresql:// URL, got '${values.postgres}'`);
  if (values.postgres === undefined && findPostgresBin(io.env) === null) {
    io.stderr.write(
      'turnloop durable-demo: no PostgreSQL found. Install the server (Debian/Ubuntu: apt-get install -y postgresql; ' +
        'or set PG_BIN to the directory of initdb and pg_ctl), or pass --postgres <url> of a running server.\n',
    );
    return EXIT_BAD_INPUT;
  }
  if (workers !== undefined) return runFleet(workers, turns, values, io);
  const killText = values['kill-at'] ?? '9';
  const killAt = Number(killText);
  if (!Number.isInteger(killAt) || killAt < 0 || killAt > turns) throw new UsageError(`--kill-at expects a turn from 0 to ${turns}, got '${killText}'`);
  const during = values['kill-during'] ?? 'tool';
  if (!(PHASES as readonly string[]).includes(during)) throw new UsageError(`--kill-during expects one of ${PHASES.join(', ')}, got '${during}'`);
  const { runDurableDemo } = await import('../../dbos/durable-demo.ts');
  const result = await runDurableDemo({
    turns,
    ...(killAt > 0 ? { killAt, killDuring: during as (typeof PHASES)[number] } : {}),
    ...(values.postgres !== undefined ? { postgresUrl: values.postgres } : {}),
  });
  const ok = result.completed && result.sameAsUninterrupted && result.distinctToolLogLines === turns && result.toolLogLines === turns;
  if (values.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const killed = result.killedAt ? `killed at turn ${result.killedAt.turn} (during ${result.killedAt.during}), recovered by a second worker` : 'not killed';
    io.stdout.write(
      [
        `durable-demo: ${turns} turns on ${result.postgres === 'temporary' ? 'a temporary Postgres' : 'the given Postgres'}, ${killed}`,
        `completed:            ${result.completed} (terminal ${result.terminal ?? 'none'})`,
        `tool log:             ${result.toolLog} (${result.toolLogLines} lines, ${result.distinctToolLogLines} distinct)`,
        `model calls paid for: ${result.modelCalls}`,
        `same as uninterrupted: ${result.sameAsUninterrupted}`,
        `recovery:             ${result.recoveryMs === null ? '-' : `${result.recoveryMs} ms from the second worker's launch to its first live step`}`,
        `session log:          ${result.sessionLog} (turnloop replay ${result.sessionLog})`,
        '',
      ].join('\n'),
    );
  }
  return ok ? EXIT_OK : EXIT_FAILURE_TERMINAL;
}

async function runFleet(workers: number, turns: number, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const text = (flag: string) => values[flag] as string | undefined;
  const sessions = positiveInteger('sessions', text('sessions')) ?? 24;
  const kills = positiveInteger('kills', text('kills'));
  const seed = positiveInteger('seed', text('seed'));
  const workerConcurrency = positiveInteger('per-worker', text('per-worker'));
  const delayText = text('model-delay');
  const modelDelayMs = delayText === undefined ? undefined : Number(delayText);
  if (modelDelayMs !== undefined && !(Number.isInteger(modelDelayMs) && modelDelayMs >= 0 && modelDelayMs <= 60_000)) {
    throw new UsageError(`--model-delay expects milliseconds from 0 to 60000, got '${delayText}'`);
  }
  if (values.chaos === true && workers < 2) throw new UsageError('--chaos needs at least 2 workers (one is never killed while it is the last)');
  const { runFleetDemo } = await import('../../dbos/fleet-demo.ts');
  const result = await runFleetDemo({
    workers, sessions, turns, chaos: values.chaos === true,
    ...(kills !== undefined ? { kills } : {}), ...(seed !== undefined ? { seed } : {}), ...(modelDelayMs !== undefined ? { modelDelayMs } : {}),
    ...(workerConcurrency !== undefined ? { workerConcurrency } : {}),
    ...(text('postgres') !== undefined ? { postgresUrl: text('postgres') } : {}),
  });
  const ok = result.lost === 0 && result.completed === result.sessions && result.toolRunsDuplicated === 0 && result.sameAsUninterrupted === result.sessions;
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    io.stdout.write(
      [
        `durable-demo: a fleet of ${workers} workers, ${sessions} sessions of ${turns} turns (model calls take ${result.modelDelayMs} ms)${result.kills > 0 ? `, ${result.kills} ${result.kills === 1 ? "worker" : "workers"} SIGKILLed` : ''}`,
        `completed:             ${result.completed} of ${result.sessions} (${result.lost} lost)`,
        `tool effects twice:    ${result.toolRunsDuplicated} (re-runs deduped by the tool: ${result.toolReRuns})`,
        `same as uninterrupted: ${result.sameAsUninterrupted} of ${result.sessions}`,
        `adoptions:             ${result.adoptions}`,
        `throughput:            ${result.sessionsPerMinute} sessions/min (${result.wallMs} ms wall), ${result.msPerTurn} ms per turn, ${result.commitsPerTurn} commits per turn`,
        `logs:                  ${result.dir}`,
        '',
      ].join('\n'),
    );
  }
  return ok ? EXIT_OK : EXIT_FAILURE_TERMINAL;
}

export const durableDemoCommand: CliCommand = {
  name: 'durable-demo',
  help: HELP,
  run,
};
