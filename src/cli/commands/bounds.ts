/**
 * `turnloop bounds`: the most one run can do under a config and params, with the rule behind each figure
 * (docs/bounds.md); `--witness FILE` writes a scenario that reaches the model-call bound.
 */
import { computeBounds, type LoopBounds } from '../../bounds/compute-bounds.ts';
import { boundsWitness } from '../../bounds/witness.ts';
import { EXIT_OK, type CliCommand, type CliIo } from '../cli-io.ts';
import { checkOutputFile, writeOutputFile } from '../write-output.ts';
import { readBoundsInput } from './bounds-input.ts';
import { examplePath } from '../examples.ts';
import { parseFlags } from './parse-flags.ts';

const HELP = `Usage: turnloop bounds [scenario.json | --example NAME] [--config JSON] [--params JSON] [--json] [--witness FILE]

Upper bounds on what one loop run can do under a config, for every environment (any model answers, tool
outcomes, hook answers, compaction outcomes, aborts): model calls (the main loop's, compactions, subagents),
HTTP attempts, output and input tokens, and cost in USD. Each figure comes with the rule it follows from; a
count no cap bounds is infinite, and the output says which switch would bound it. The arithmetic is in
docs/bounds.md.

Input: a scenario file (its config and params), and/or --config and --params as replay's what-if takes them.

Options:
  --example NAME    a scenario that ships with turnloop (turnloop examples lists them)
  --config JSON     config overrides, e.g. '{"limits":{"maxStopHookBlocking":3}}'
  --params JSON     params, e.g. '{"maxTurns":5,"fallbackModel":"claude-haiku-4-5"}'
  --json            print { modelCalls, httpAttempts, outputTokens, inputTokens, costUsd, because, ... }
                    (an infinite figure is null)
  --witness FILE    write a scenario whose simulation (turnloop simulate FILE) makes exactly the
                    model-call bound of main-loop calls

Exit codes: 0 ok, 2 bad input.`;

const shown = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'infinite');

function render(b: LoopBounds): string {
  const lines = [
    `model calls     ${shown(b.modelCalls)}  (main loop ${shown(b.mainModelCalls)}, compaction ${shown(b.compactionCalls)}, subagents ${shown(b.subagentCalls)})`,
    `HTTP attempts   ${shown(b.httpAttempts)}`,
    `output tokens   ${shown(b.outputTokens)}`,
    `input tokens    ${shown(b.inputTokens)}`,
    `cost            ${Number.isFinite(b.costUsd) ? `$${b.costUsd.toFixed(2)}` : 'infinite'}`,
    '',
    'because:',
    ...b.because.map((rule) => `  ${rule}`),
  ];
  if (b.finiteWith.length > 0) lines.push('', 'to make an infinite count finite:', ...b.finiteWith.map((s) => `  ${s}`));
  return lines.join('\n');
}

/** JSON cannot hold Infinity: an infinite figure is null. */
export function boundsJson(b: LoopBounds): unknown {
  return JSON.parse(JSON.stringify(b, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value)));
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('bounds', args, {
    example: { type: 'string' },
    config: { type: 'string' },
    params: { type: 'string' },
    json: { type: 'boolean', default: false },
    witness: { type: 'string' },
  });
  // --example NAME: a scenario that ships with turnloop, wherever the user stands.
  const files = values.example === undefined ? positionals : [...positionals, examplePath('scenarios', values.example)];
  const input = readBoundsInput('bounds', files, values.config, values.params, io.cwd);
  // The witness file and the witness itself are checked before anything is printed: bad input is one line, exit 2.
  if (values.witness !== undefined) checkOutputFile(values.witness, io.cwd);
  const bounds = computeBounds(input.config, input.params, input.options);
  const witness = values.witness === undefined ? undefined : boundsWitness(input.config, input.overrides, input.params);
  io.stdout.write(values.json ? `${JSON.stringify(boundsJson(bounds), null, 2)}\n` : `${render(bounds)}\n`);
  if (values.witness !== undefined && witness !== undefined) {
    const path = writeOutputFile(values.witness, io.cwd, `${JSON.stringify(witness.scenario, null, 2)}\n`);
    const reach = witness.modelCalls === witness.bound ? 'reaches the bound' : `reaches ${witness.modelCalls} of ${shown(witness.bound)}`;
    io.stderr.write(`witness: ${path} (${witness.modelCalls} main-loop model calls: ${reach})\n`);
  }
  return EXIT_OK;
}

export const boundsCommand: CliCommand = { name: 'bounds', help: HELP, run };
