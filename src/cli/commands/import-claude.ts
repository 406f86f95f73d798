/**
 * `turnloop import-claude <transcript.jsonl> --out <dir>`: one `turnloop simulate` scenario per loop run of a
 * Claude Code transcript, in simulate's own format (see `src/claude/scenario.ts`).
 * Subagents linked to their Task calls are scripted in the parent's scenario (`src/claude/agent-scenarios.ts`),
 * others go to `<dir>/subagents/<agent>/`. Exit codes: 0 written, 2 bad input.
 */
import { dirname, join } from 'node:path';
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readTranscriptText, transcriptFile } from '../read-transcript.ts';
import { makeOutputDir, writeOutputFile } from '../write-output.ts';
import { parseFlags } from './parse-flags.ts';
import { sessionScenarios } from '../../claude/agent-scenarios.ts';
import { readClaudeSession } from '../../claude/session.ts';

const HELP = `Usage: turnloop import-claude <transcript.jsonl> | --example NAME --out <dir> [--no-subagents]

Writes one turnloop simulate scenario per loop run (run-001.json, …), loadable as is by
"turnloop simulate <file> --check": params.messages (history + prompt as Anthropic message params, from the
last compact boundary), the recorded replies as the model script, the recorded tool results per tool, the
recorded compaction summaries as compactionModel, an interrupt as "abort", the recorded ending as "expect"
(terminal, transitions, modelCalls, autocompactBeforeCalls) and the provenance as "source".
Subagents (2.x <session>/subagents/agent-*.jsonl files, 1.0.x inline sidechains) are read unless --no-subagents.
A run whose Task calls are all linked to a subagent transcript gets an "agents" section: the Task tool is
a scripted subagent whose runs are the subagents' recorded replies, so simulate checks parent and children
together. Other subagents get scenarios of their own under <dir>/subagents/<agent>/ (agent-<id>/, or
sidechain-<line>/ for an inline one); a Task call that cannot be scripted that way keeps its recorded result.
Unknown line types are skipped and counted; a file without any message line is refused. --example NAME
reads a transcript that ships with turnloop (turnloop examples lists them). Exit 0 written, 2 bad input.`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('import-claude', args, {
    out: { type: 'string' },
    'no-subagents': { type: 'boolean', default: false },
    example: { type: 'string' },
  });
  const file = transcriptFile(positionals, values.example);
  if (!values.out) throw new UsageError('--out <dir> is required');
  readTranscriptText(file, io.cwd);
  const session = readClaudeSession(file, { subagents: values['no-subagents'] !== true });
  const { scenarios, notes } = sessionScenarios(session);
  for (const { path, scenario } of scenarios) {
    makeOutputDir(dirname(join(values.out, path)), io.cwd);
    writeOutputFile(join(values.out, path), io.cwd, `${JSON.stringify(scenario, null, 2)}\n`);
  }
  const withAgents = scenarios.filter((s) => (s.scenario.agents?.length ?? 0) > 0).length;
  const skipped = Object.entries(session.main.skipped).map(([type, n]) => `${type}×${n}`).join(', ') || 'none';
  const lines = [
    `${file}: ${scenarios.length} scenario(s) → ${values.out} (${withAgents} with their subagents scripted as agents; main thread's skipped lines: ${skipped})`,
    ...notes.map((n) => `  ${n}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export const importClaudeCommand: CliCommand = {
  name: 'import-claude',
  help: HELP,
  run,
};
