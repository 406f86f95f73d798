/**
 * The `hooks` of a settings file, read as claude 2.1.334 reads them (probed offline, docs/agent-sdk-conformance.md):
 * `{ "<Event>": [{ "matcher"?: string, "hooks": [{ "type": "command", "command": string, "timeout"?: seconds }] }] }`.
 * Pure: it only checks and collects; command-hooks.ts runs them.
 *
 * What claude does with a bad `hooks`, and so does this:
 * - `hooks` not an object: the field is skipped, the rest of the file applies;
 * - an event name claude does not know: that event is skipped, the rest applies;
 * - a malformed matcher or hook (no `command`, a bad `timeout`...): nothing in the file applies (a PreToolUse hook
 *   that cannot load may be what guards the rules beside it).
 * Events claude knows that turnloop does not run (`SessionEnd`, `Notification`, ...) and hooks of another type
 * than `command` (`prompt`, `agent`, `http`) are kept out and named (`ignored`), never run half.
 */
import { isRecord, kindOf } from './settings-values.ts';

/**
 * The events turnloop runs settings hooks for: the ones its SDK callback hooks run for (sdk-hooks.ts), and
 * SessionStart, which claude 2.1.334 runs from settings files only (a program's SessionStart callback is not called).
 */
export const COMMAND_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'SessionStart'] as const;

/** The other events claude 2.1.334 accepts in a settings file (its warning lists them). */
const OTHER_CLAUDE_EVENTS = [
  'PostToolBatch', 'Notification', 'UserPromptExpansion', 'SessionEnd', 'StopFailure', 'PreCompact', 'PostCompact',
  'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated', 'TaskCompleted',
  'Elicitation', 'ElicitationResult', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove', 'InstructionsLoaded', 'CwdChanged', 'FileChanged',
];

/** claude's default for a command hook without `timeout`: ten minutes. */
export const COMMAND_HOOK_DEFAULT_TIMEOUT_S = 600;

export interface CommandHook {
  command: string;
  /** Seconds. */
  timeout: number;
}

export interface CommandHookMatcher {
  matcher?: string;
  hooks: CommandHook[];
}

export type CommandHookConfig = Partial<Record<string, CommandHookMatcher[]>>;

export interface HooksReading {
  hooks: CommandHookConfig;
  /** `field`: `hooks` or one event is left out; `file`: nothing in the file may apply. */
  problems: Array<{ field: string; problem: string; scope: 'field' | 'file' }>;
  ignored: string[];
}

/** Reads a settings file's `hooks` value (undefined: none). */
export function readSettingsHooks(value: unknown): HooksReading {
  const reading: HooksReading = { hooks: {}, problems: [], ignored: [] };
  if (value === undefined) return reading;
  if (!isRecord(value)) {
    reading.problems.push({ field: 'hooks', problem: `expected an object mapping event names to matcher arrays, got ${kindOf(value)}; this field is ignored`, scope: 'field' });
    return reading;
  }
  for (const [event, matchers] of Object.entries(value)) {
    const runs = (COMMAND_HOOK_EVENTS as readonly string[]).includes(event);
    if (!runs && !OTHER_CLAUDE_EVENTS.includes(event)) {
      reading.problems.push({ field: `hooks.${event}`, problem: `unknown hook event ${JSON.stringify(event)}, ignored (turnloop runs ${COMMAND_HOOK_EVENTS.join(', ')})`, scope: 'field' });
      continue;
    }
    if (!Array.isArray(matchers)) {
      reading.problems.push({ field: `hooks.${event}`, problem: `expected an array of matchers, got ${kindOf(matchers)}`, scope: 'file' });
      continue;
    }
    const kept: CommandHookMatcher[] = [];
    for (const [i, entry] of matchers.entries()) {
      const where = `hooks.${event}.${i}`;
      if (!isRecord(entry) || (entry.matcher !== undefined && typeof entry.matcher !== 'string') || !Array.isArray(entry.hooks)) {
        reading.problems.push({ field: where, problem: `expected { matcher?: string, hooks: [...] }, got ${JSON.stringify(entry)}`, scope: 'file' });
        continue;
      }
      const commands: CommandHook[] = [];
      for (const [j, hook] of entry.hooks.entries()) {
        const at = `${where}.hooks.${j}`;
        if (!isRecord(hook) || typeof hook.type !== 'string') {
          reading.problems.push({ field: at, problem: `expected a hook object with a type, got ${JSON.stringify(hook)}`, scope: 'file' });
        } else if (hook.type !== 'command') {
          reading.ignored.push(`${at}: turnloop runs only command hooks; ignoring a ${hook.type} hook`);
        } else if (typeof hook.command !== 'string' || hook.command.trim() === '') {
          reading.problems.push({ field: `${at}.command`, problem: `expected a command string, got ${JSON.stringify(hook.command)}`, scope: 'file' });
        } else if (hook.timeout !== undefined && !(typeof hook.timeout === 'number' && hook.timeout > 0 && Number.isFinite(hook.timeout))) {
          reading.problems.push({ field: `${at}.timeout`, problem: `expected a positive number of seconds, got ${JSON.stringify(hook.timeout)}`, scope: 'file' });
        } else {
          commands.push({ command: hook.command, timeout: (hook.timeout as number | undefined) ?? COMMAND_HOOK_DEFAULT_TIMEOUT_S });
        }
      }
      if (commands.length > 0) kept.push({ ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}), hooks: commands });
    }
    if (!runs) {
      if (kept.length > 0) reading.ignored.push(`hooks.${event}: turnloop does not run ${event} hooks; ignoring them`);
      continue;
    }
    if (kept.length > 0) reading.hooks[event] = kept;
  }
  return reading;
}

/** Two settings files' hooks together: every file's matchers run (user first, as claude lists them). */
export function mergeCommandHooks(into: CommandHookConfig, more: CommandHookConfig): void {
  for (const [event, matchers] of Object.entries(more)) into[event] = [...(into[event] ?? []), ...(matchers ?? [])];
}
