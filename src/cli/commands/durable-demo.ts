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

Runs a scripted session of T turns (default 20; an offline model, and a tool that appends one line per
execution to a file) as a DBOS workflow in a worker process, SIGKILLs that worker at turn N (default 9) during
a model call, a tool call (default) or between two steps, then starts a second worker that recovers the session
from Postgres and finishes it. Checks the tool log (exactly T distinct lines), counts the model calls paid for,
exports the session log (turnloop replay / viz read it) and compares its transcript with a run without a kill.

Without --postgres it starts a temporary PostgreSQL on 127.0.0.1 (Debian's postgresql package; stopped at the
end). Nothing leaves the machine.

Options:
  --kill-at N        the turn to kill the first worker at (1..T); 0 = no kill
  --kill-during P    model | tool | between (default tool)
  --turns T          turns of the session (default 20)
  --postgres URL     use this running Postgres (postgresql://user@host:port/db)
  --json             one JSON object: completed, toolLog, sessionLog, modelCalls, sameAsUninterrupted, ...`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('durable-demo', args, {
    'kill-at': { type: 'string' },
    'kill-during': { type: 'string' },
    turns: { type: 'string' },
    postgres: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (see turnloop durable-demo --help)`);
  const turns = positiveInteger('turns', values.turns) ?? 20;
  const killText = values['kill-at'] ?? '9';
  const killAt = Number(killText);
  if (!Number.isInteger(killAt) || killAt < 0 || killAt > turns) throw new UsageError(`--kill-at expects a turn from 0 to ${turns}, got '${killText}'`);
  const during = values['kill-during'] ?? 'tool';
  if (!(PHASES as readonly string[]).includes(during)) throw new UsageError(`--kill-during expects one of ${PHASES.join(', ')}, got '${during}'`);
  if (values.postgres !== undefined && !/^postgres(ql)?:\/\//.test(values.postgres)) throw new UsageError(`--postgres expects a postgresql:// URL, got '${values.postgres}'`);
  if (values.postgres === undefined && findPostgresBin(io.env) === null) {
    io.stderr.write(
      'turnloop durable-demo: no PostgreSQL found. Install the server (Debian/Ubuntu: apt-get install -y postgresql; ' +
        'or set PG_BIN to the directory of initdb and pg_ctl), or pass --postgres <url> of a running server.\n',
    );
    return EXIT_BAD_INPUT;
  }
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

export const durableDemoCommand: CliCommand = {
  name: 'durable-demo',
  summary: 'A session survives its worker being SIGKILLed (DBOS + Postgres)',
  help: HELP,
  run,
};
