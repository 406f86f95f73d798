/**
 * `turnloop explore`: every run the abstract environment can produce under a config, folded through `step()`,
 * each state checked against the invariants (docs/bounds.md "Explorer").
 */
import { join } from 'node:path';
import { exploreLoop, type ExploreResult } from '../../bounds/explore-loop.ts';
import { pathToScenario } from '../../bounds/path-scenario.ts';
import { EXIT_FAILURE_TERMINAL, EXIT_OK, type CliCommand, type CliIo } from '../cli-io.ts';
import { makeOutputDir, writeOutputFile } from '../write-output.ts';
import { readBoundsInput } from './bounds-input.ts';
import { examplePath } from '../examples.ts';
import { parseFlags, positiveInteger } from './parse-flags.ts';

const HELP = `Usage: turnloop explore [scenario.json | --example NAME] [--config JSON] [--params JSON] [--max-states N] [--max-depth N]
                        [--json] [--violations DIR]

Breadth-first over every environment the loop can meet (model answers: text, a tool call, max_tokens, prompt
too long, a media error, overload, refusal, API errors, thrown errors; tool outcomes; stop-hook answers;
compaction and drain outcomes; an abort at each point), folding each answer through the reducer and merging
equal states. At every state it checks: a terminal is reachable; the run is within the bounds of
'turnloop bounds'; every tool_use is answered before the next model request; no model call follows an abort;
autocompact never runs past its circuit breaker. Small configs (maxTurns 2-3, caps of 1-2, a low
limits.maxModelCalls) are explored completely; larger ones up to --max-states / --max-depth, reported partial.

Options:
  --example NAME      a scenario that ships with turnloop (turnloop examples lists them)
  --config JSON       config overrides (as turnloop bounds)
  --params JSON       params (as turnloop bounds)
  --max-states N      stop after N distinct states (default 200000)
  --max-depth N       do not expand states N answers deep
  --json              print { complete, states, edges, transitionsCovered, terminalsReached, violations }
  --violations DIR    write each violation's path as a scenario that reproduces it (DIR/violation-N.json)

Exit codes: 0 no violation, 1 a violation, 2 bad input.`;

function render(r: ExploreResult, seconds: number): string {
  const lines = [
    `${r.complete ? 'complete' : 'partial'}: ${r.states.toLocaleString('en-US')} states, ${r.edges.toLocaleString('en-US')} edges, depth ${r.maxDepth}, ${Math.round(r.states / Math.max(seconds, 1e-3)).toLocaleString('en-US')} states/s`,
    `transitions covered (${r.transitionsCovered.length}): ${r.transitionsCovered.join(', ')}`,
    `terminals reached (${r.terminalsReached.length}): ${r.terminalsReached.join(', ')}`,
    r.violations.length === 0 ? 'no violation' : `${r.violations.length} violation(s):`,
    ...r.violations.map((v) => `  ${v.invariant}: ${v.detail}\n    path: ${v.path.join(' → ')}`),
  ];
  return lines.join('\n');
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('explore', args, {
    example: { type: 'string' },
    config: { type: 'string' },
    params: { type: 'string' },
    'max-states': { type: 'string' },
    'max-depth': { type: 'string' },
    json: { type: 'boolean', default: false },
    violations: { type: 'string' },
  });
  const maxStates = positiveInteger('max-states', values['max-states']);
  const maxDepth = positiveInteger('max-depth', values['max-depth']);
  // --example NAME: a scenario that ships with turnloop, wherever the user stands.
  const files = values.example === undefined ? positionals : [...positionals, examplePath('scenarios', values.example)];
  const input = readBoundsInput('explore', files, values.config, values.params, io.cwd);
  const started = performance.now();
  const result = exploreLoop(input.config, input.params, { boundsOptions: input.options, ...(maxStates ? { maxStates } : {}), ...(maxDepth ? { maxDepth } : {}) });
  const seconds = (performance.now() - started) / 1000;
  if (values.json) {
    const { bounds: _bounds, examplePaths: _examplePaths, ...rest } = result;
    io.stdout.write(`${JSON.stringify({ ...rest, statesPerSecond: Math.round(result.states / Math.max(seconds, 1e-3)) }, null, 2)}\n`);
  } else io.stdout.write(`${render(result, seconds)}\n`);
  if (values.violations !== undefined && result.violations.length > 0) {
    const dir = makeOutputDir(values.violations, io.cwd);
    result.violations.forEach((violation, i) => {
      const written = pathToScenario(violation.path, input.config, input.overrides, input.params, `violation ${i + 1}: ${violation.invariant}`);
      const file = writeOutputFile(join(dir, `violation-${i + 1}.json`), io.cwd, `${JSON.stringify(written.scenario, null, 2)}\n`);
      io.stderr.write(`violation ${i + 1}: ${file}${written.reproducible ? '' : ` (not reproducible by simulate: ${written.reason})`}\n`);
    });
  }
  return result.violations.length > 0 ? EXIT_FAILURE_TERMINAL : EXIT_OK;
}

export const exploreCommand: CliCommand = { name: 'explore', help: HELP, run };
