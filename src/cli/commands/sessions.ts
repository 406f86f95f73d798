/**
 * `turnloop sessions [--project DIR] [--limit N] [--json]`: the Claude Code sessions on this machine, newest
 * first, each with the command lines that open it in the viewer and check it; then turnloop's own session logs
 * (`.turnloop/sessions/` of the project). Reads files only; exit 0 even when there is nothing to list.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { listClaudeSessions, localClaudeConfigDir, projectFolderName, unlessGone, type LocalSession } from '../../claude/local-sessions.ts';
import { promptText } from '../../claude/prompt-text.ts';
import { SESSIONS_DIR } from '../../agent-sdk/session-store.ts';
import { EXIT_OK, type CliCommand, type CliIo } from '../cli-io.ts';
import { nonNegativeInteger, parseFlags } from './parse-flags.ts';

const HELP = `Usage: turnloop sessions [--project DIR] [--limit N] [--json]

Lists the Claude Code sessions on this machine, newest first: when each was last active, its project, its first
prompt, its model calls (and subagent transcripts), and the two command lines that open it:
  turnloop viz <session.jsonl> --out <id>.html   every run re-driven through the engine, on one page
  turnloop check-claude <session.jsonl>          does the engine reproduce each run?
Claude Code keeps them in $CLAUDE_CONFIG_DIR/projects/<project>/<session id>.jsonl (default ~/.claude), where
<project> is the working directory with every character but letters and digits turned into '-'.
Then turnloop's own session logs (.turnloop/sessions/ of the project: turnloop run and the Agent SDK record
there), with their viz and replay lines.

Options:
  --project DIR   only this project: its working directory (e.g. . or ~/code/app) or its folder's name
                  under projects/ (default: every project; turnloop logs of the current directory)
  --limit N       list at most N sessions of each kind (default 20; 0 lists all)
  --json          machine-readable output`;

const FLAGS = {
  project: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

interface TurnloopLog {
  file: string;
  lastActive: number;
  firstPrompt: string | null;
  modelCalls: number;
}

/** A path as a shell reads it: quoted only when it must be. */
const shellWord = (path: string) => (/^[\w@%+=:,./~-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const quoted = (prompt: string | null) => (prompt === null ? '(no prompt)' : `"${prompt.length > 100 ? `${prompt.slice(0, 99)}…` : prompt}"`);

/** A turnloop session log's summary: header params' first prompt, `model_done` events; unreadable lines skipped. */
function summariseLog(file: string): TurnloopLog {
  let firstPrompt: string | null = null;
  let modelCalls = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let o: { kind?: unknown; params?: { messages?: Array<{ type?: string; isMeta?: boolean; message?: { content?: unknown } }> }; event?: { type?: unknown } };
    try {
      o = JSON.parse(line) as typeof o;
    } catch {
      continue;
    }
    if (o?.kind === 'header') {
      const first = (o.params?.messages ?? []).find((m) => m.type === 'user' && m.isMeta !== true && promptText(m.message?.content) !== null);
      firstPrompt = first ? promptText(first.message?.content) : null;
    } else if (o?.kind === 'event' && o.event?.type === 'model_done') modelCalls++;
  }
  return { file, lastActive: statSync(file).mtimeMs, firstPrompt, modelCalls };
}

function turnloopLogs(projectDir: string): TurnloopLog[] {
  const dir = join(projectDir, SESSIONS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => unlessGone(() => (statSync(join(dir, name)).isFile() ? [summariseLog(join(dir, name))] : [])) ?? [])
    .sort((a, b) => b.lastActive - a.lastActive || a.file.localeCompare(b.file));
}

const idOf = (file: string) => basename(file, '.jsonl');

function claudeLines(s: LocalSession): string[] {
  const subagents = s.subagents > 0 ? `, ${s.subagents} subagent transcript${s.subagents === 1 ? '' : 's'}` : '';
  return [
    `${when(s.lastActive)}  ${s.cwd ?? s.project}  ${s.modelCalls} model call${s.modelCalls === 1 ? '' : 's'}${subagents}`,
    `  ${quoted(s.firstPrompt)}`,
    `  turnloop viz ${shellWord(s.file)} --out ${shellWord(`${idOf(s.file)}.html`)}`,
    `  turnloop check-claude ${shellWord(s.file)}`,
  ];
}

function logLines(log: TurnloopLog): string[] {
  return [
    `${when(log.lastActive)}  ${log.modelCalls} model call${log.modelCalls === 1 ? '' : 's'}`,
    `  ${quoted(log.firstPrompt)}`,
    `  turnloop viz ${shellWord(log.file)} --out ${shellWord(`${idOf(log.file)}.html`)}`,
    `  turnloop replay ${shellWord(log.file)}`,
  ];
}

/** `--project` names a folder under projects/ (`-home-me-app`), not a path (`.`, `~/app`, `../app`). */
const isFolderName = (project: string) => !/[\\/]/.test(project) && project !== '.' && project !== '..' && !project.startsWith('~');

/** The projects/ folder `--project` names: an existing folder name as given, else the working directory's. */
function projectFolder(configDir: string, project: string, cwd: string): string {
  if (isFolderName(project) && existsSync(join(configDir, 'projects', project))) return project;
  return projectFolderName(resolve(cwd, project));
}

function limited<T>(items: T[], limit: number): { shown: T[]; more: number } {
  return limit === 0 ? { shown: items, more: 0 } : { shown: items.slice(0, limit), more: Math.max(0, items.length - limit) };
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags('sessions', args, FLAGS);
  const limit = nonNegativeInteger('limit', values.limit) ?? 20;
  const configDir = localClaudeConfigDir(io.env, io.cwd);
  const folder = values.project === undefined ? undefined : projectFolder(configDir, values.project, io.cwd);
  // A folder name under projects/ is not a directory here: turnloop's logs are then the current directory's.
  const projectDir = values.project === undefined || (isFolderName(values.project) && folder === values.project) ? io.cwd : resolve(io.cwd, values.project);
  const claude = listClaudeSessions(configDir, folder);
  const logs = turnloopLogs(projectDir);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ configDir, project: folder ?? null, claude: limited(claude, limit).shown, turnloop: { dir: join(projectDir, SESSIONS_DIR), logs: limited(logs, limit).shown } }, null, 2)}\n`);
    return EXIT_OK;
  }
  const where = join(configDir, 'projects', folder ?? '');
  const out: string[] = [];
  if (claude.length === 0) {
    out.push(`No Claude Code sessions under ${where}${io.env['CLAUDE_CONFIG_DIR'] !== undefined ? '' : ' (set CLAUDE_CONFIG_DIR if Claude Code keeps them elsewhere)'}.`, '');
  } else {
    const { shown, more } = limited(claude, limit);
    out.push(`Claude Code sessions under ${where}, newest first (${claude.length}):`, '');
    for (const s of shown) out.push(...claudeLines(s), '');
    if (more > 0) out.push(`… ${more} more (--limit 0 lists all)`, '');
  }
  const logDir = join(projectDir, SESSIONS_DIR);
  if (logs.length === 0) out.push(`No turnloop session logs in ${logDir}.`);
  else {
    const { shown, more } = limited(logs, limit);
    out.push(`turnloop session logs in ${logDir}, newest first (${logs.length}):`, '');
    for (const log of shown) out.push(...logLines(log), '');
    if (more > 0) out.push(`… ${more} more (--limit 0 lists all)`);
  }
  io.stdout.write(`${out.join('\n').replace(/\n+$/, '')}\n`);
  return EXIT_OK;
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  help: HELP,
  run,
};
