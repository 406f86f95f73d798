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
import { splitRuns } from '../../claude/runs.ts';
import { scenariosOf } from '../../claude/scenario.ts';
import { readClaudeSession, type ChildTranscript } from '../../claude/session.ts';
import type { Transcript } from '../../claude/transcript.ts';

const HELP = `Usage: turnloop import-claude <transcript.jsonl> --out <dir> [--no-subagents]

Writes one turnloop simulate scenario per loop run (run-001.json, …), loadable as is by
"turnloop simulate <file> --check": params.messages (history + prompt as Anthropic message params, from the
last compact boundary), the recorded replies as the model script, the recorded tool results per tool, the
recorded compaction summaries as compactionModel, an interrupt as "abort", the recorded ending as "expect"
(terminal, transitions, modelCalls, autocompactBeforeCalls) and the provenance as "source".
Subagents go to <dir>/subagents/<agent>/ unless --no-subagents: <session>/subagents/agent-*.jsonl files
(2.x) as agent-<id>/, inline sidechains of the session file (1.0.x) as sidechain-<line>/.
Unknown line types are skipped and counted. Exit 0 written, 2 bad input.`;

function writeScenarios(transcript: Transcript, dir: string, querySource: string, io: CliIo): number {
  const scenarios = scenariosOf(splitRuns(transcript), transcript.file, querySource);
  makeOutputDir(dir, io.cwd);
  for (const { fileName, scenario } of scenarios) writeOutputFile(join(dir, fileName), io.cwd, `${JSON.stringify(scenario, null, 2)}\n`);
  const skipped = Object.entries(transcript.skipped).map(([type, n]) => `${type}×${n}`).join(', ') || 'none';
  io.stdout.write(`${transcript.file}: ${scenarios.length} run(s) → ${dir} (skipped lines: ${skipped})\n`);
  return scenarios.length;
}

/** The output folder of a subagent's scenarios: its file's name, or `sidechain-<line>` for an inline sidechain. */
function childDir(child: ChildTranscript): string {
  return child.format === 'subagent-file' ? basename(child.file, '.jsonl') : `sidechain-${child.startLine}`;
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
  const session = readClaudeSession(file, { subagents: values['no-subagents'] !== true });
  writeScenarios(session.main, values.out, 'repl_main_thread', io);
  for (const child of session.children) writeScenarios(child.transcript, join(values.out, 'subagents', childDir(child)), child.querySource, io);
  return 0;
}

export const importClaudeCommand: CliCommand = {
  name: 'import-claude',
  help: HELP,
  run,
};
