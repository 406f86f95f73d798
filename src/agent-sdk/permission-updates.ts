/**
 * "Always allow" for an SDK run, as Claude Code does it: the `permission_suggestions` a `can_use_tool` request
 * carries, and the `updatedPermissions` a program answers with (the SDK's `PermissionUpdate[]`).
 *
 * Invariants:
 * - A rule the program adds is a rule string (`Bash(mkdir -p build)`) matched by permission-rules.ts like any
 *   `allowedTools` / `disallowedTools` rule: parsed Bash commands, fail closed. Deny rules win over allow rules.
 * - Updates are checked whole before any is applied: a malformed answer changes nothing and is an error naming
 *   the field (the call is then denied with that text, so the SDK is never left waiting).
 * - Only the project's files are written: `localSettings` is `.claude/settings.local.json`, `projectSettings`
 *   `.claude/settings.json`, each reached without following a symlink; `userSettings` (outside the project) is
 *   refused.
 * - As Claude Code (seen on 2.1.334): an update takes effect for the rest of the session when its destination is
 *   `session` or `cliArg`, or a settings file whose setting source the session reads (`localSettings`: `local`,
 *   `projectSettings`: `project`); a file of a source not read is written and not applied (the SDK's default,
 *   `settingSources: []`, so an "always allow" for localSettings asks again until the next run that reads it).
 */
import { lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { isFilesystemCommand, isPermissionMode, type PermissionMode } from './permission-modes.ts';
import { parseShellCommand, type SimpleCommand } from './shell-commands.ts';
import type { JsonObject } from './json-lines.ts';
import type { SettingSource } from './setting-sources.ts';
import { isRecord } from './settings-values.ts';

export const PERMISSION_DESTINATIONS = ['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg'] as const;
export type PermissionDestination = (typeof PERMISSION_DESTINATIONS)[number];
type RuleBehavior = 'allow' | 'deny' | 'ask';
const RULE_BEHAVIORS: readonly RuleBehavior[] = ['allow', 'deny', 'ask'];

export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

export type PermissionUpdate =
  | { type: 'addRules' | 'replaceRules' | 'removeRules'; rules: PermissionRuleValue[]; behavior: RuleBehavior; destination: PermissionDestination }
  | { type: 'setMode'; mode: PermissionMode; destination: PermissionDestination }
  | { type: 'addDirectories' | 'removeDirectories'; directories: string[]; destination: PermissionDestination };

/** A program's `updatedPermissions` that turnloop cannot take: what, where, what was expected. */
export class PermissionUpdateError extends TurnloopError {
  constructor(message: string) {
    super('SDK_PERMISSION_UPDATE', `updatedPermissions: ${message}`);
    this.name = 'PermissionUpdateError';
  }
}

/** A settings file would be written through a symlink or outside the project. */
export class SettingsOutsideProjectError extends TurnloopError {
  constructor(path: string, reason: string) {
    super('SDK_SETTINGS_OUTSIDE', `settings: refusing ${path}: ${reason}; settings files are written inside the project only`);
    this.name = 'SettingsOutsideProjectError';
  }
}

function parseRuleValue(value: unknown, where: string): PermissionRuleValue {
  if (!isRecord(value) || typeof value.toolName !== 'string' || value.toolName.trim() === '' || /[()]/.test(value.toolName)) {
    throw new PermissionUpdateError(`${where}: expected { toolName: string, ruleContent?: string } with a tool name, got ${JSON.stringify(value)}`);
  }
  if (value.ruleContent !== undefined && typeof value.ruleContent !== 'string') throw new PermissionUpdateError(`${where}.ruleContent: expected a string, got ${JSON.stringify(value.ruleContent)}`);
  return value.ruleContent === undefined ? { toolName: value.toolName } : { toolName: value.toolName, ruleContent: value.ruleContent };
}

/** The program's `updatedPermissions`, checked whole (the SDK's `PermissionUpdate` variants); throws `PermissionUpdateError`. */
export function parsePermissionUpdates(value: unknown): PermissionUpdate[] {
  if (!Array.isArray(value)) throw new PermissionUpdateError(`expected an array of permission updates, got ${JSON.stringify(value)}`);
  return value.map((update, i): PermissionUpdate => {
    const where = `[${i}]`;
    if (!isRecord(update)) throw new PermissionUpdateError(`${where}: expected an object, got ${JSON.stringify(update)}`);
    const { type, destination } = update;
    if (!(PERMISSION_DESTINATIONS as readonly unknown[]).includes(destination)) {
      throw new PermissionUpdateError(`${where}.destination: expected one of ${PERMISSION_DESTINATIONS.join(', ')}, got ${JSON.stringify(destination)}`);
    }
    const dest = destination as PermissionDestination;
    switch (type) {
      case 'addRules': case 'replaceRules': case 'removeRules': {
        if (!(RULE_BEHAVIORS as readonly unknown[]).includes(update.behavior)) throw new PermissionUpdateError(`${where}.behavior: expected allow, deny or ask, got ${JSON.stringify(update.behavior)}`);
        if (!Array.isArray(update.rules)) throw new PermissionUpdateError(`${where}.rules: expected an array, got ${JSON.stringify(update.rules)}`);
        return { type, rules: update.rules.map((rule, j) => parseRuleValue(rule, `${where}.rules[${j}]`)), behavior: update.behavior as RuleBehavior, destination: dest };
      }
      case 'setMode':
        if (!isPermissionMode(update.mode)) throw new PermissionUpdateError(`${where}.mode: expected a permission mode, got ${JSON.stringify(update.mode)}`);
        return { type, mode: update.mode, destination: dest };
      case 'addDirectories': case 'removeDirectories':
        if (!Array.isArray(update.directories) || !update.directories.every((d) => typeof d === 'string')) throw new PermissionUpdateError(`${where}.directories: expected an array of strings, got ${JSON.stringify(update.directories)}`);
        return { type, directories: update.directories as string[], destination: dest };
      default:
        throw new PermissionUpdateError(`${where}.type: expected addRules, replaceRules, removeRules, setMode, addDirectories or removeDirectories, got ${JSON.stringify(type)}`);
    }
  });
}

/** A rule value as a rule string (`Bash(npm test)`), the form permission-rules.ts and settings files take. */
export function ruleString(rule: PermissionRuleValue): string {
  return rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`;
}

/** The setting source whose files a destination writes (a destination absent here applies to the session alone). */
const SOURCE_OF: Partial<Record<PermissionDestination, SettingSource>> = { localSettings: 'local', projectSettings: 'project', userSettings: 'user' };

const SETTINGS_FILES: Partial<Record<PermissionDestination, string>> = { localSettings: 'settings.local.json', projectSettings: 'settings.json' };

/** `.claude/<file>` under the real `cwd`, `.claude` created when missing and refused when it is a symlink or not a directory. */
function settingsPath(cwd: string, file: string): string {
  const dir = join(realpathSync(cwd), '.claude');
  let stats = lstatSync(dir, { throwIfNoEntry: false });
  if (!stats) {
    mkdirSync(dir, { recursive: true });
    stats = lstatSync(dir);
  }
  if (stats.isSymbolicLink()) throw new SettingsOutsideProjectError(dir, 'it is a symbolic link');
  if (!stats.isDirectory()) throw new SettingsOutsideProjectError(dir, 'it is not a directory');
  const path = join(dir, file);
  const fileStats = lstatSync(path, { throwIfNoEntry: false });
  if (fileStats && !fileStats.isFile()) throw new SettingsOutsideProjectError(path, fileStats.isSymbolicLink() ? 'it is a symbolic link' : 'it is not a regular file');
  return path;
}

/** Applies the updates of one destination to a settings file (`permissions.allow|deny|ask`, `permissions.defaultMode`, `permissions.additionalDirectories`). */
function writeSettings(cwd: string, destination: PermissionDestination, updates: readonly PermissionUpdate[]): void {
  const file = SETTINGS_FILES[destination];
  if (!file) return;
  const path = settingsPath(cwd, file);
  let settings: Record<string, unknown> = {};
  const fileStats = lstatSync(path, { throwIfNoEntry: false });
  if (fileStats) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new SettingsOutsideProjectError(path, `it is not valid JSON (${(error as Error).message}); it is left as it is`);
    }
    if (!isRecord(parsed)) throw new SettingsOutsideProjectError(path, 'it is not a JSON object; it is left as it is');
    settings = parsed;
  }
  const permissions: Record<string, unknown> = isRecord(settings.permissions) ? { ...settings.permissions } : {};
  const list = (key: string): string[] => (Array.isArray(permissions[key]) ? (permissions[key] as unknown[]).filter((v): v is string => typeof v === 'string') : []);
  for (const update of updates) {
    if (update.type === 'setMode') permissions.defaultMode = update.mode;
    else if ('directories' in update) {
      const current = list('additionalDirectories');
      permissions.additionalDirectories = update.type === 'addDirectories' ? [...new Set([...current, ...update.directories])] : current.filter((d) => !update.directories.includes(d));
    } else {
      const rules = update.rules.map(ruleString);
      const current = list(update.behavior);
      permissions[update.behavior] = update.type === 'addRules' ? [...new Set([...current, ...rules])] : update.type === 'replaceRules' ? rules : current.filter((r) => !rules.includes(r));
    }
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...settings, permissions }, null, 2)}\n`);
  renameSync(temporary, path);
}

/** The rules and directories updated during a session (every destination), read by each permission decision. */
export class SessionPermissions {
  readonly rules: Record<RuleBehavior, string[]> = { allow: [], deny: [], ask: [] };

  constructor(private readonly options: { cwd: string; setMode(mode: PermissionMode): void; /** The sources the session reads (`--setting-sources`). */ settingSources: readonly SettingSource[]; /** The settings files' `permissions.ask` (settings-permissions.ts). */ askRules?: readonly string[] }) {
    this.rules.ask.push(...(options.askRules ?? []));
  }

  /** What a `can_use_tool` request for this call suggests (`permissionSuggestions`). */
  suggest(toolName: string, input: Record<string, unknown>): Promise<JsonObject[]> {
    return permissionSuggestions(toolName, input, this.options.cwd);
  }

  /** Checks then applies the program's `updatedPermissions`; throws (changing nothing) on a malformed or refused one. */
  apply(value: unknown): void {
    const updates = parsePermissionUpdates(value);
    for (const [i, update] of updates.entries()) {
      if (update.destination === 'userSettings') throw new PermissionUpdateError(`[${i}].destination: userSettings is outside the project and turnloop does not write it; use localSettings, projectSettings or session`);
      if (update.type === 'addDirectories' || update.type === 'removeDirectories') {
        throw new PermissionUpdateError(`[${i}].type: ${update.type} is not supported by turnloop (its tools' directories are fixed at start: pass additionalDirectories to query())`);
      }
    }
    for (const destination of new Set(updates.map((u) => u.destination))) writeSettings(this.options.cwd, destination, updates.filter((u) => u.destination === destination));
    for (const update of updates) {
      const source = SOURCE_OF[update.destination];
      if (source !== undefined && !this.options.settingSources.includes(source)) continue;
      if (update.type === 'setMode') this.options.setMode(update.mode);
      else if ('rules' in update) {
        const rules = update.rules.map(ruleString);
        const current = this.rules[update.behavior];
        const next = update.type === 'addRules' ? [...new Set([...current, ...rules])] : update.type === 'replaceRules' ? rules : current.filter((r) => !rules.includes(r));
        current.splice(0, current.length, ...next);
      }
    }
  }
}

/** Tools whose calls `acceptEdits` runs unasked (what a file edit's suggestion offers). */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** Commands a compound command's rules leave out, as claude 2.1.334 does (`mkdir out || true` suggests `mkdir out *`). */
const NOT_SUGGESTED = new Set(['true', 'false', ':']);

/**
 * The rule content claude 2.1.334 suggests for one simple command (seen offline): a program followed by a bare word
 * (a subcommand: `npm test`, `git commit -m x`, `go build ./...`) gets a prefix rule of both (`npm test *`); any other
 * command its exact words (`python3 x.py`, `mkdir -p build`, `make`). Undefined when no rule would match it again (a
 * word known only at run time, or holding a space, or assignments in front).
 */
export function suggestedRuleContent(command: SimpleCommand): string | undefined {
  const { words } = command;
  if (command.assignments > 0 || words.length === 0 || words.some((w) => w === null)) return undefined;
  const [program, second] = words as string[];
  if (/\s/.test(program!)) return undefined;
  if (second !== undefined && /^[A-Za-z][\w-]*$/.test(second)) return `${program} ${second} *`;
  return words.some((w) => /\s/.test(w!)) ? undefined : words.join(' ');
}

/**
 * The suggestions a `can_use_tool` request carries, as Claude Code makes them: for a Bash call, one `addRules` for
 * localSettings with a rule per command (`a && b`: two rules, `true` left out), plus `acceptEdits` for the session
 * when it is one command that acceptEdits would have run unasked; for a file edit, `acceptEdits` for the session;
 * for WebFetch, its URL's domain (`WebFetch(domain:host)`) for localSettings. None for a command that cannot be
 * parsed or writes through a redirection, nor for other tools.
 */
export async function permissionSuggestions(toolName: string, input: Record<string, unknown>, cwd: string): Promise<JsonObject[]> {
  const acceptEdits: JsonObject = { type: 'setMode', mode: 'acceptEdits', destination: 'session' };
  if (EDIT_TOOLS.has(toolName)) return [acceptEdits];
  if (toolName === 'WebFetch') {
    const host = typeof input.url === 'string' && URL.canParse(input.url) ? new URL(input.url).hostname : '';
    return host === '' ? [] : [{ type: 'addRules', rules: [{ toolName: 'WebFetch', ruleContent: `domain:${host}` }], behavior: 'allow', destination: 'localSettings' }];
  }
  if (toolName !== 'Bash' || typeof input.command !== 'string') return [];
  const parsed = await parseShellCommand(input.command);
  if (parsed === null || parsed.redirections.length > 0 || parsed.commands.length === 0) return [];
  const suggested = parsed.commands.length === 1 ? parsed.commands : parsed.commands.filter((c) => !(c.words.length > 0 && NOT_SUGGESTED.has(c.words[0] ?? '')));
  const contents = suggested.map(suggestedRuleContent);
  if (contents.length === 0 || contents.some((c) => c === undefined)) return [];
  const rule: JsonObject = { type: 'addRules', rules: [...new Set(contents as string[])].map((ruleContent) => ({ toolName: 'Bash', ruleContent })), behavior: 'allow', destination: 'localSettings' };
  return parsed.commands.length === 1 && (await isFilesystemCommand(input.command, cwd)) ? [rule, acceptEdits] : [rule];
}
