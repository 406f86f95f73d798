/**
 * `turnloop check-claude <transcript.jsonl>`: re-drives every loop run of a Claude Code transcript (and of its
 * subagent transcripts) through the engine and reports whether each reproduces.
 * Exit codes: 0 every run reproduces, 1 some run does not, 2 bad input.
 */
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readTranscriptText, transcriptFile } from '../read-transcript.ts';
import { parseFlags } from './parse-flags.ts';
import { shownPath } from '../read-input.ts';
import { resolve } from 'node:path';
import { checkClaudeSession, type RunCheck, type SessionCheck, type TranscriptCheck } from '../../claude/check.ts';

const HELP = `Usage: turnloop check-claude <transcript.jsonl> | --example NAME [--json] [--no-subagents]

Re-drives every run of a Claude Code transcript through the engine (pure reducer, recorded answers) and reports
per run: model calls expected/got, tool results paired in order, the ending, and whether autocompact fired at the
same model call. Subagents are checked too, each as its own run set, unless --no-subagents: the files under
<session>/subagents/ (2.x) and the inline sidechains of the session file (1.0.x: isSidechain lines). A Task call
whose subagent has no transcript (only progress lines, or nothing) is listed as not checkable.
Unknown line types are skipped and counted; a file without any message line (a turnloop session log, a
scenario) is refused. --example NAME checks a transcript that ships with turnloop (turnloop examples lists
them). Exit 0 when every run reproduces, 1 otherwise, 2 on bad input. turnloop viz draws the same runs (the
engine's states, step by step, beside the conversation) on one page, marking those that do not reproduce.`;

function runLine(r: RunCheck): string {
  const mark = r.ok ? 'ok ' : 'BAD';
  const tools = r.toolResults.paired ? `${r.toolResults.got.length} results paired` : `results differ (expected ${r.toolResults.expected.length}, got ${r.toolResults.got.length})`;
  const compact = r.autocompact.recorded.length + r.autocompact.engine.length === 0 ? 'no autocompact' : `autocompact before call ${r.autocompact.recorded.join(',') || '-'} / engine ${r.autocompact.engine.join(',') || '-'}`;
  const notes = [...r.notes, ...r.info.map((i) => `explained: ${i}`)].length > 0 ? ` — ${[...r.notes, ...r.info.map((i) => `explained: ${i}`)].join('; ')}` : '';
  return `  ${mark} run ${r.run} (line ${r.startLine}): model calls ${r.modelCalls.expected}/${r.modelCalls.got}, ${tools}, ending ${r.ending.recorded} → ${r.ending.got}, ${compact}${notes}`;
}

function subagentLabel(check: TranscriptCheck): string {
  const s = check.subagent;
  if (!s) return '';
  const where = s.format === 'inline-sidechain' ? `inline sidechain from line ${s.startLine}` : 'subagent file';
  const link = s.toolUseId ? `for Task ${s.toolUseId}` : check.querySource === 'compact' ? 'compaction agent' : `not linked to a Task call: ${s.unlinked ?? 'unknown'}`;
  const result = !s.result ? '' : s.result.same ? ', final answer = the recorded Task result' : ', final answer DIFFERS from the recorded Task result';
  return `, ${where}, ${link}${result}`;
}

function report(check: TranscriptCheck): string {
  const skipped = Object.entries(check.skipped).map(([type, n]) => `${type}×${n}`).join(', ') || 'none';
  return [`${check.file} (${check.querySource}${subagentLabel(check)}, ${check.lines} lines; skipped: ${skipped})`, `  constants: ${check.constants}`, ...check.runs.map(runLine)].join('\n');
}

function notCheckableLines(session: SessionCheck): string[] {
  return session.notCheckable.map((n) => `  not checkable: subagent of Task ${n.toolUseId}${n.agentId ? ` (agent ${n.agentId})` : ''}: ${n.reason}`);
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('check-claude', args, {
    json: { type: 'boolean', default: false },
    'no-subagents': { type: 'boolean', default: false },
    example: { type: 'string' },
  });
  const file = transcriptFile(positionals, values.example);
  readTranscriptText(file, io.cwd);
  const session = checkClaudeSession(resolve(io.cwd, file), { subagents: values['no-subagents'] !== true });
  const checks = session.transcripts;
  if (values.json) io.stdout.write(`${JSON.stringify(session, null, 2)}\n`);
  else {
    const runs = checks.reduce((n, c) => n + c.runs.length, 0);
    const bad = checks.reduce((n, c) => n + c.runs.filter((r) => !r.ok).length, 0);
    const unchecked = session.notCheckable.length > 0 ? `; ${session.notCheckable.length} subagent run(s) not checkable` : '';
    io.stdout.write(`${[...checks.map(report), ...notCheckableLines(session)].join('\n')}\n${bad === 0 ? `all ${runs} runs reproduce` : `${bad} of ${runs} runs do not reproduce`}${unchecked}\nsee the runs: turnloop viz ${shownPath(file, io.cwd)} --out view.html\n`);
  }
  return session.ok ? 0 : 1;
}

export const checkClaudeCommand: CliCommand = {
  name: 'check-claude',
  help: HELP,
  run,
};
