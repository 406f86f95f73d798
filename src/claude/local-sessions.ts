/**
 * The Claude Code sessions on this machine: `<config dir>/projects/<project>/<session id>.jsonl`, where the config
 * dir is `CLAUDE_CONFIG_DIR` or `~/.claude` (`claudeConfigDir`, config-dir.ts) and `<project>` is the working directory with every character other
 * than a letter or digit turned into `-` (how Claude Code names the folder). For each session: when it was last
 * written to, its first prompt as a person typed it, its model calls and its subagent transcripts. Reads files only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { claudeConfigDir } from './config-dir.ts';
import { subagentFiles } from './session.ts';
import { promptText } from './prompt-text.ts';

export interface LocalSession {
  file: string;
  /** The projects folder's name (the encoded working directory). */
  project: string;
  /** The working directory the session ran in, as its lines record it (null: none recorded). */
  cwd: string | null;
  /** The last `timestamp` its lines record (ms since epoch); the file's modification time when none does. */
  lastActive: number;
  /** The first prompt as typed (a slash command as `/name args`), on one line; null when there is none. */
  firstPrompt: string | null;
  /** Model replies of the main thread (assistant lines grouped by the API message id). */
  modelCalls: number;
  /** Subagent transcripts under `<session>/subagents/`. */
  subagents: number;
}

/** This process's Claude Code config dir (`claudeConfigDir`), the OS's home standing in for a missing `HOME`. */
export function localClaudeConfigDir(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  return claudeConfigDir(env, cwd, homedir()) as string;
}

/** The name Claude Code gives a working directory's folder under `projects/`. */
export function projectFolderName(cwd: string): string {
  return resolve(cwd).replace(/[^a-zA-Z0-9]/g, '-');
}

/** Reads one session file's summary. */
export function summariseSession(file: string, project: string): LocalSession {
  const ids = new Set<string>();
  let firstPrompt: string | null = null;
  let lastActive = Number.NaN;
  let cwd: string | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a line cut short by a crash: the listing still shows the rest
    }
    if (o === null || typeof o !== 'object') continue;
    if (typeof o['timestamp'] === 'string') {
      const t = Date.parse(o['timestamp']);
      if (!Number.isNaN(t) && !(t <= lastActive)) lastActive = t;
    }
    if (cwd === null && typeof o['cwd'] === 'string') cwd = o['cwd'];
    if (o['isSidechain'] === true) continue;
    const message = o['message'] as Record<string, unknown> | undefined;
    if (!message || typeof message !== 'object') continue;
    if (o['type'] === 'assistant') ids.add(String(message['id'] ?? `line-${ids.size}`));
    else if (o['type'] === 'user' && firstPrompt === null && o['isMeta'] !== true) firstPrompt = promptText(message['content']);
  }
  if (Number.isNaN(lastActive)) lastActive = statSync(file).mtimeMs;
  return { file, project, cwd, lastActive, firstPrompt, modelCalls: ids.size, subagents: subagentFiles(file).length };
}

/**
 * The sessions of one project folder, or of every project, newest first.
 *
 * @example
 * listClaudeSessions(localClaudeConfigDir(process.env, process.cwd())).slice(0, 5).map((s) => s.firstPrompt);
 */
export function listClaudeSessions(configDir: string, project?: string): LocalSession[] {
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return [];
  const folders = project !== undefined ? [project] : readdirSync(projects).filter((name) => statSync(join(projects, name)).isDirectory());
  const sessions: LocalSession[] = [];
  for (const folder of folders) {
    const dir = join(projects, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      const session = name.endsWith('.jsonl') ? unlessGone(() => (statSync(file).isFile() ? summariseSession(file, folder) : undefined)) : undefined;
      if (session) sessions.push(session);
    }
  }
  return sessions.sort((a, b) => b.lastActive - a.lastActive || a.file.localeCompare(b.file));
}

/**
 * `read()`, or undefined when the file went away while it was listed: a running session replaces its log between
 * turns, and a listing must skip it rather than fail.
 */
export function unlessGone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}
