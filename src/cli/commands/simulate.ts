/**
 * `turnloop simulate <scenario.json>`: one deterministic loop run against a scripted environment, the model
 * reached through the real adapter and SDK talking to the loopback fake API (see docs/scenarios.md).
 */
import { EXIT_BAD_INPUT, EXIT_FAILURE_TERMINAL, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { styleFor } from '../render/style.ts';
import { isFailureTerminal, outcomeMismatches } from '../../scenario/check-outcome.ts';
import { loadScenario } from '../../scenario/load-scenario.ts';
import { scenarioProblems, type ScenarioProblem } from '../../scenario/scenario-problems.ts';
import { readInputText } from '../read-input.ts';
import { prepareRecordPath, writeFailureReason } from '../write-output.ts';
import { simulateScenario, type SimulateOptions, type SimulationResult } from '../../scenario/simulate.ts';
import { createTranscriptPrinter } from '../render/transcript.ts';
import { resolveConfig } from '../../config/config.ts';
import { parseFlags } from './parse-flags.ts';
import { examplePath } from '../examples.ts';
import { expandInspectArgs, INSPECT_FLAGS, INSPECT_HELP, startCliInspector } from '../inspect-flag.ts';
import { durableRunLoop } from '../../durable/durable-query.ts';
import { MemoryJournal } from '../../durable/journal.ts';

const DRIVERS = ['query', 'durable'] as const;

/** The driver `--driver` names: `undefined` is `query()`'s engine (`simulateScenario`'s default). */
function driverOf(name: string | undefined): SimulateOptions['driver'] {
  if (name === undefined || name === 'query') return undefined;
  if (name === 'durable') {
    const journal = new MemoryJournal();
    // The engine's options, as `runLoop()` takes them: below the boundary `durableQuery()` checks and extends.
    return (options) => durableRunLoop({ ...options, journal });
  }
  throw new UsageError(`--driver expects one of ${DRIVERS.join(', ')}, got '${name}' (see turnloop simulate --help)`);
}

const HELP = `Usage: turnloop simulate <scenario.json> [--json] [--record <log.jsonl>] [--strict] [--check] [--driver query|durable] [--inspect[=PORT]]
       turnloop simulate --example NAME [the same options]

Runs one agent loop against the environment a scenario file scripts: the model's HTTP answers (served by a
loopback fake of the Anthropic Messages API, reached through the real SDK), tool results, stop-hook answers,
compaction outcomes and an optional abort. The fake API is as strict as the real one (docs/fake-api.md).
The transcript shows every compaction that happens or fails. Deterministic: ids are counters, time is virtual, so two runs
print the same thing. The file format is in docs/scenarios.md.

Options:
  --example NAME      run one of the scenarios that ship with turnloop (turnloop examples lists them),
                      e.g. --example completed
  --json              machine-readable result: terminal, transitions, modelCalls, requests, emitted,
                      toolCalls, stopHookCalls, compactions, scriptExhausted, rejections (requests the
                      fake API refused as the real API would), agentRuns (the subagents' child runs);
                      for a scenario that does not validate, every problem at once (exit 2):
                      {"error": "INVALID_SCENARIO", "file", "problems": [{path, expected}]}
  --driver NAME       what runs the loop: query (default, query()) or durable (durableQuery() on an
                      in-memory journal, docs/durable.md); the same scenario gives the same --json output
                      under both, but for the Extensions of the durable driver (tools after the reply,
                      one at a time: see docs/fidelity.md)
  --record <file>     write a session log of the run (see turnloop replay); the subagents' logs go
                      beside it, in <file minus .jsonl>.agents/; a file that holds data is refused
  --force             let --record overwrite a file that holds data
  --strict            exit 1 when the run ends in a failure terminal (blocking_limit, image_error,
                      model_error, prompt_too_long, max_turns, completed on an API error, or any
                      terminal reached through a cap)
  --check             exit 1 when the outcome differs from the scenario's "expect"
${INSPECT_HELP}
  --debug             show stack traces

Exit codes: 0 ok, 1 failure terminal (--strict), unexpected outcome (--check) or a session log that could not
be written, 2 bad input.`;

/** The scenario file: the one argument, or the shipped example --example names. */
function scenarioFile(positionals: string[], example: string | undefined): string {
  if (example !== undefined) {
    if (positionals.length > 0) throw new UsageError(`give a scenario file or --example, not both (got '${positionals[0]}' and --example ${example})`);
    return examplePath('scenarios', example);
  }
  if (positionals.length !== 1) throw new UsageError('expected exactly one scenario file, or --example NAME (see turnloop simulate --help)');
  return positionals[0];
}

/** A scenario that does not validate, under --json: `{"error": "INVALID_SCENARIO", "file", "problems": [{path, expected}]}`. */
function reportProblems(io: CliIo, file: string, problems: ScenarioProblem[]): number {
  io.stdout.write(`${JSON.stringify({ error: 'INVALID_SCENARIO', file, problems }, null, 2)}\n`);
  io.stderr.write(`turnloop simulate: ${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} (listed on stdout)\n`);
  return EXIT_BAD_INPUT;
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('simulate', expandInspectArgs(args), {
    ...INSPECT_FLAGS,
    json: { type: 'boolean', default: false },
    record: { type: 'string' },
    strict: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    example: { type: 'string' },
    driver: { type: 'string' },
  });
  const driver = driverOf(values.driver);
  const file = scenarioFile(positionals, values.example);
  const text = readInputText(file, io.cwd, { expected: 'a scenario file (JSON)', format: 'json' });
  // With --json every problem is reported at once; without, the first one is thrown below as one clear message.
  const problems = values.json ? scenarioProblems(text, file) : [];
  if (problems.length > 0) return reportProblems(io, file, problems);
  const scenario = loadScenario(file, io.cwd);
  const record = values.record === undefined ? undefined : prepareRecordPath(values.record, io.cwd, { force: values.force === true });
  // A log that cannot be written is said at once, and the command fails (the run itself goes on to its end).
  let recordError: Error | null = null;
  const onRecordError = (error: Error) => {
    recordError ??= error;
    io.stderr.write(`turnloop simulate: cannot write the session log ${values.record}: ${writeFailureReason(error)}; recording stopped\n`);
  };

  const live = await startCliInspector(values, io, 'simulate');
  const observers = live?.observers ?? [];
  const simulation: SimulateOptions = { record, observers, onRecordError, ...(driver ? { driver } : {}) };
  let result: SimulationResult;
  if (values.json) {
    result = await simulateScenario(scenario, simulation);
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const breakerAt = resolveConfig(scenario.config).limits.autocompactMaxFailures;
    const printer = createTranscriptPrinter((line) => io.stdout.write(`${line}\n`), styleFor(io), scenario.name ?? file, breakerAt);
    result = await simulateScenario(scenario, { ...simulation, onItem: printer.onItem, onStep: printer.onStep });
    printer.finish(result);
  }
  await live?.finish();
  if (recordError) return EXIT_FAILURE_TERMINAL;
  if (record) io.stderr.write(`session log: ${record}\n`);

  const mismatches = values.check && scenario.expect ? outcomeMismatches(scenario.expect, result, scenario.agents) : [];
  if (values.check && !scenario.expect) io.stderr.write('--check: the scenario has no "expect"; nothing to check\n');
  for (const problem of mismatches) io.stderr.write(`unexpected outcome: ${problem}\n`);
  if (mismatches.length > 0) return EXIT_FAILURE_TERMINAL;
  if (values.strict && isFailureTerminal(result.terminal)) return EXIT_FAILURE_TERMINAL;
  return EXIT_OK;
}

export const simulateCommand: CliCommand = {
  name: 'simulate',
  help: HELP,
  run,
};
