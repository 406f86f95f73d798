/**
 * `turnloop import-claude <transcript.jsonl> --out <dir>`: one `turnloop simulate` scenario per loop run of a
 * Claude Code transcript, in simulate's own format (see `src/claude/scenario.ts`).
 * Subagent transcripts go to `<dir>/subagents/<agent>/`. Exit codes: 0 written, 2 bad input.
 */
import { basename, join } from 'node:path';
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readInputText } from '../read-input.ts';
import { makeOutputDir, writeOutputFile } from '../write-output.ts';
import { parseFlags } from './parse-flags.ts';
import { querySourceOf, subagentFiles } from '../../claude/check.ts';
import { splitRuns } from '../../claude/runs.ts';
import { scenariosOf } from '../../claude/scenario.ts';
import { readTranscript } from '../../claude/transcript.ts';

const HELP = `Usage: turnloop import-claude <transcript.jsonl> --out <dir> [--no-subagents]

Writes one turnloop simulate scenario per loop run (run-001.json, …), loadable as is by
"turnloop simulate <file> --check": params.messages (history + prompt as Anthropic message params, from the
last compact boundary), the recorded replies as the model script, the recorded tool results per tool, the
recorded compaction summaries as compactionModel, an interrupt as "abort", the recorded ending as "expect"
(terminal, transitions, modelCalls, autocompactBeforeCalls) and the provenance as "source".
Subagent transcripts (<session>/subagents/*.jsonl) go to <dir>/subagents/<agent>/ unless --no-subagents.
Unknown line types are skipped and counted. Exit 0 written, 2 bad input.`;

function writeScenarios(file: string, dir: string, querySource: string, io: CliIo): number {
  const transcript = readTranscript(file);
  const scenarios = scenariosOf(splitRuns(transcript), file, querySource);
  makeOutputDir(dir, io.cwd);
  for (const { fileName, scenario } of scenarios) writeOutputFile(join(dir, fileName), io.cwd, `${JSON.stringify(scenario, null, 2)}\n`);
  const skipped = Object.entries(transcript.skipped).map(([type, n]) => `${type}×${n}`).join(', ') || 'none';
  io.stdout.write(`${file}: ${scenarios.length} run(s) → ${dir} (skipped lines: ${skipped})\n`);
  return scenarios.length;
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('import-claude', args, {
    out: { type: 'string' },
    'no-subagents': { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('expected exactly one transcript path');
  if (!values.out) throw new UsageError('--out <dir> is required');
  const [file] = positionals;
  readInputText(file, io.cwd, { expected: 'a Claude Code transcript (JSON Lines)', format: 'jsonl' });
  writeScenarios(file, values.out, 'repl_main_thread', io);
  if (values['no-subagents'] !== true) {
    for (const sub of subagentFiles(file)) writeScenarios(sub, join(values.out, 'subagents', basename(sub, '.jsonl')), querySourceOf(sub), io);
  }
  return 0;
}

export const importClaudeCommand: CliCommand = {
  name: 'import-claude',
  summary: 'Turn a Claude Code transcript into one simulate scenario per loop run',
  help: HELP,
  run,
};
