/**
 * What the settings files of the sources `--setting-sources` names hold for a session, as claude 2.1.334 reads them
 * (probed offline, docs/agent-sdk-conformance.md): `user` is `settings.json` in the config directory
 * (config-dir.ts), `project` `.claude/settings.json`, `local` `.claude/settings.local.json`, all under the working
 * directory. `permissions.allow|deny|ask` of every file read are merged (user, project, local) and apply as
 * `--allowedTools` / `--disallowedTools` rules do (permission-rules.ts); `permissions.defaultMode` is the mode when
 * no `--permission-mode` is given, the last file that sets it winning; `permissions.additionalDirectories` add to
 * `--add-dir` (resolved against the working directory); `env` is set for the session's commands and hooks (over the
 * process's own variables); `hooks` are command hooks (settings-hooks.ts, run by command-hooks.ts); `model` is the
 * session's model when no `--model` is given, the last file that sets it winning.
 *
 * Invariants:
 * - A file that is not valid JSON, not an object, or whose `permissions` (or one of its lists), `env`,
 *   `permissions.additionalDirectories` or a hook has the wrong type is not read at all; a rule that is not a string
 *   is skipped and the rest kept; `hooks` that is not an object, or an unknown hook event, is left out alone. Either way the
 *   session starts and each problem is reported, naming the file and what was wrong (`settingsProblemsMessage`).
 * - Nothing is read outside the project or the config directory: a symlinked `.claude` or settings file is
 *   refused (as permission-updates.ts refuses to write through one) and reported as a problem.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { claudeConfigDir } from '../claude/config-dir.ts';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from './permission-modes.ts';
import type { JsonObject } from './json-lines.ts';
import { mergeCommandHooks, readSettingsHooks, type CommandHookConfig } from './settings-hooks.ts';
import type { SettingSource } from './setting-sources.ts';
import type { FlagSettings } from './flag-settings.ts';
import { isRecord, kindOf } from './settings-values.ts';

const RULE_LISTS = ['allow', 'deny', 'ask'] as const;

export interface SettingsProblem {
  path: string;
  /** Where in the file (`permissions.allow`), when the problem is inside it. */
  field?: string;
  problem: string;
  /** `file`: nothing in the file applies; `field`: that field (or hook event) was ignored, the rest applies; `entry`: the entry was skipped, the rest applies. */
  scope: 'file' | 'field' | 'entry';
}

export interface SettingsPermissions {
  rules: Record<(typeof RULE_LISTS)[number], string[]>;
  defaultMode?: PermissionMode;
  /** `env` of every file read, a later file winning: set for the session's commands and hooks. */
  env: Record<string, string>;
  /** `permissions.additionalDirectories`, absolute (resolved against the working directory). */
  additionalDirectories: string[];
  /** Command hooks (settings-hooks.ts), every file's. */
  hooks: CommandHookConfig;
  /** `model`, the last file's that sets it: the session's model when the program names none (as claude). */
  model?: string;
  problems: SettingsProblem[];
  /** What the files read hold that turnloop does not apply (`sandbox`, `statusLine`, a SessionStart hook...), one line each. */
  ignored: string[];
}

/** The keys turnloop applies; `$schema` only names the file's schema. */
const READ_KEYS = new Set(['permissions', 'env', 'hooks', 'model', '$schema']);
const READ_PERMISSION_KEYS = new Set([...RULE_LISTS, 'defaultMode', 'additionalDirectories']);

/** The settings file of each selected source, user first (the order claude merges them in). */
export function settingsFiles(sources: readonly SettingSource[], cwd: string, env: Record<string, string | undefined>): Array<{ source: SettingSource; dir: string; file: string }> {
  const files: Array<{ source: SettingSource; dir: string; file: string }> = [];
  const user = claudeConfigDir(env, cwd);
  if (sources.includes('user') && user) files.push({ source: 'user', dir: user, file: 'settings.json' });
  if (sources.includes('project')) files.push({ source: 'project', dir: join(cwd, '.claude'), file: 'settings.json' });
  if (sources.includes('local')) files.push({ source: 'local', dir: join(cwd, '.claude'), file: 'settings.local.json' });
  return files;
}

/** The file's text, or why it may not be read; undefined when it does not exist. */
function readSettingsText(source: SettingSource, dir: string, path: string): { text: string } | { problem: string } | undefined {
  // The project's `.claude` must be a directory of the project, not a link elsewhere; the config dir is the user's own.
  if (source !== 'user') {
    const dirStats = lstatSync(dir, { throwIfNoEntry: false });
    if (!dirStats || !dirStats.isDirectory()) return dirStats?.isSymbolicLink() ? { problem: `${dir} is a symbolic link; settings are read inside the project only` } : undefined;
  }
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return undefined;
  if (stats.isSymbolicLink()) return { problem: 'it is a symbolic link; settings files are read only as regular files' };
  if (!stats.isFile()) return { problem: 'it is not a regular file' };
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

/**
 * Reads and merges the permission settings of the given sources, then the flag settings (`--settings`,
 * flag-settings.ts) over them, as claude's highest user-controlled layer; never throws on a bad file (see the problems).
 */
export function readSettingsPermissions(sources: readonly SettingSource[], cwd: string, env: Record<string, string | undefined>, flag?: FlagSettings): SettingsPermissions {
  const merged: SettingsPermissions = { rules: { allow: [], deny: [], ask: [] }, env: {}, additionalDirectories: [], hooks: {}, problems: [], ignored: [] };
  for (const { source, dir, file } of settingsFiles(sources, cwd, env)) {
    const path = join(dir, file);
    const read = readSettingsText(source, dir, path);
    if (read === undefined) continue;
    if ('problem' in read) merged.problems.push({ path, problem: read.problem, scope: 'file' });
    else mergeSettingsText(merged, path, read.text, cwd);
  }
  if (flag) mergeSettingsText(merged, flag.label, flag.text, cwd);
  return merged;
}

/** Checks one settings file's text and merges what it holds into `merged`; a problem of scope `file` leaves it all out. */
function mergeSettingsText(merged: SettingsPermissions, path: string, text: string, cwd: string): void {
  const fileProblem = (problem: string, field?: string): void => {
    merged.problems.push({ path, problem, scope: 'file', ...(field ? { field } : {}) });
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fileProblem(`not valid JSON (${(error as Error).message})`);
    return;
  }
  if (!isRecord(parsed)) {
    fileProblem(`expected a JSON object, got ${kindOf(parsed)}`);
    return;
  }
  const { permissions } = parsed;
  const ignored = [...Object.keys(parsed).filter((key) => !READ_KEYS.has(key)), ...(isRecord(permissions) ? Object.keys(permissions).filter((key) => !READ_PERMISSION_KEYS.has(key)).map((key) => `permissions.${key}`) : [])];
  if (ignored.length > 0) merged.ignored.push(`${path}: turnloop applies only permissions (allow, deny, ask, defaultMode, additionalDirectories), env, model and command hooks; ignoring ${ignored.join(', ')}`);
  // Every check comes before anything is merged: a problem of scope `file` leaves the whole file out.
  if (parsed.model !== undefined && (typeof parsed.model !== 'string' || parsed.model.trim() === '')) return fileProblem(`expected a model name, got ${JSON.stringify(parsed.model)}`, 'model');
  if (parsed.env !== undefined && !isRecord(parsed.env)) return fileProblem(`expected an object of variable names to values, got ${kindOf(parsed.env)}`, 'env');
  const hooks = readSettingsHooks(parsed.hooks);
  const badHooks = hooks.problems.find((p) => p.scope === 'file');
  if (badHooks) return fileProblem(badHooks.problem, badHooks.field);
  if (permissions !== undefined && !isRecord(permissions)) return fileProblem(`expected an object, got ${kindOf(permissions)}`, 'permissions');
  const perms = permissions ?? {};
  const badList = RULE_LISTS.find((key) => perms[key] !== undefined && !Array.isArray(perms[key]));
  if (badList) return fileProblem(`expected an array of rule strings, got ${kindOf(perms[badList])}`, `permissions.${badList}`);
  if (perms.defaultMode !== undefined && !isPermissionMode(perms.defaultMode)) {
    return fileProblem(`expected one of ${PERMISSION_MODES.join(', ')}, got ${JSON.stringify(perms.defaultMode)}`, 'permissions.defaultMode');
  }
  const dirs = perms.additionalDirectories;
  if (dirs !== undefined && !Array.isArray(dirs)) return fileProblem(`expected an array of directory paths, got ${kindOf(dirs)}`, 'permissions.additionalDirectories');
  const badDir = ((dirs as unknown[] | undefined) ?? []).findIndex((d) => typeof d !== 'string' || d === '');
  if (badDir >= 0) return fileProblem(`expected a directory path, got ${JSON.stringify((dirs as unknown[])[badDir])}`, `permissions.additionalDirectories[${badDir}]`);
  for (const p of hooks.problems) merged.problems.push({ path, field: p.field, problem: p.problem, scope: 'field' });
  merged.ignored.push(...hooks.ignored.map((line) => `${path}: ${line}`));
  mergeCommandHooks(merged.hooks, hooks.hooks);
  // As claude: a value that is not a string is taken as its text (`1` is "1"); a later file wins.
  for (const [name, value] of Object.entries((parsed.env as Record<string, unknown> | undefined) ?? {})) {
    if (value !== null && value !== undefined) merged.env[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  // Relative to the working directory, as claude resolves them (not to the settings file's folder).
  for (const dir of (dirs as string[] | undefined) ?? []) {
    const absolute = resolve(cwd, dir);
    if (!merged.additionalDirectories.includes(absolute)) merged.additionalDirectories.push(absolute);
  }
  for (const key of RULE_LISTS) {
    for (const [i, rule] of ((perms[key] as unknown[] | undefined) ?? []).entries()) {
      if (typeof rule !== 'string') merged.problems.push({ path, field: `permissions.${key}[${i}]`, problem: `expected a rule string, got ${JSON.stringify(rule)}; skipped`, scope: 'entry' });
      else if (!merged.rules[key].includes(rule)) merged.rules[key].push(rule);
    }
  }
  if (perms.defaultMode !== undefined) merged.defaultMode = perms.defaultMode as PermissionMode;
  if (typeof parsed.model === 'string') merged.model = parsed.model;
}

/** One line per problem: the file, the field, what was wrong. */
export function settingsProblemLines(problems: readonly SettingsProblem[]): string[] {
  return problems.map((p) => `${p.path}${p.field ? ` (${p.field})` : ''}: ${p.problem}${p.scope === 'file' ? '; nothing in this file is in effect' : p.scope === 'field' ? '; the rest of the file is in effect' : ''}`);
}

/**
 * The warning claude sends after `system/init` when settings did not load (`system/informational`, tag
 * `settings_not_in_effect`, level `warning`); undefined when there is no problem.
 */
export function settingsProblemsMessage(problems: readonly SettingsProblem[], sessionId: string): JsonObject | undefined {
  if (problems.length === 0) return undefined;
  const content = `Settings with problems (fix them and start again):\n${settingsProblemLines(problems).map((line) => `  ${line}`).join('\n')}`;
  return { type: 'system', subtype: 'informational', tag: 'settings_not_in_effect', content, level: 'warning', uuid: randomUUID(), session_id: sessionId };
}
