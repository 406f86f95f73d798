/**
 * Claude Code's permission rules for an SDK run (docs/agent-sdk.md; how a rule matches a call: permission-rules.ts,
 * docs/security.md): `disallowedTools` deny first; `allowedTools` allow; then the mode: `bypassPermissions` allows
 * everything, `plan` allows only read-only calls, `acceptEdits` allows file edits (Edit, Write) and filesystem
 * commands (mkdir, touch, rm, mv, cp...) inside the working directory, `dontAsk` denies what no rule allowed;
 * otherwise a read-only call is allowed and any other call is asked about: through a `can_use_tool` control request
 * when the program gave `canUseTool` (`--permission-prompt-tool stdio`), else denied. Every denial is recorded for
 * the result's `permission_denials`; one decided without asking anyone (a rule, the mode, no `canUseTool`) is also
 * announced, as claude announces it with `system/permission_denied` (a deny of the program or of a hook is not).
 */
import type { CanUseTool } from '../tools/call-deps.ts';
import type { PermissionResult, Tool } from '../tools/define-tool.ts';
import type { JsonObject } from './json-lines.ts';
import type { PermissionDenial } from './result-message.ts';
import { messageOf } from '../errors/message-of.ts';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isInside } from '../tools/builtin/confine-path.ts';
import { hasWorkingDirectory } from '../tools/builtin/bash.ts';
import { permissionDeniedText } from '../tools/permission.ts';
import { bashDenyRuleText, dontAskModeText, VARIABLE_IN_COMMAND_TEXT } from './permission-denial-texts.ts';
import { commandParser, firstCoveringRule, writesAFile } from './permission-rules.ts';
import { expandsVariable, parseShellCommand } from './shell-commands.ts';
import { isSubagentToolName } from './subagent-tool-names.ts';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** Tools whose calls change files (what `acceptEdits` allows). */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Shell commands `acceptEdits` runs unasked, as Claude Code does: simple filesystem commands. */
const FILESYSTEM_COMMANDS = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp']);

/** Whether `path` (absolute) lies inside `cwd`, lexically and through the real path of its nearest existing ancestor. */
function insideWorkingDirectory(path: string, cwd: string): boolean {
  if (!isInside(cwd, path)) return false;
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    return isInside(realpathSync(cwd), realpathSync(existing));
  } catch {
    return false;
  }
}

/**
 * Whether `acceptEdits` runs this Bash command unasked: every simple command in it is one of the filesystem commands
 * (no assignments in front), every word is known before it runs, every path it names (option values after `=`
 * included) lies inside the working directory (symlinks resolved), and no redirection writes a file. A command that
 * cannot be parsed is not (fail closed). Relative paths are taken from `shellDirectory`, where the command will
 * run (Bash keeps a `cd` across calls), and must still lie inside `cwd`.
 */
export async function isFilesystemCommand(command: unknown, cwd: string = process.cwd(), shellDirectory: string = cwd): Promise<boolean> {
  if (typeof command !== 'string') return false;
  const parsed = await parseShellCommand(command);
  if (parsed === null || parsed.commands.length === 0 || parsed.redirections.some(writesAFile)) return false;
  return parsed.commands.every(({ words, assignments }) => {
    const [program, ...args] = words;
    if (assignments > 0 || !program || !FILESYSTEM_COMMANDS.has(program)) return false;
    return args.every((arg) => {
      if (arg === null) return false;
      const path = arg.startsWith('-') ? (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : null) : arg;
      return path === null || insideWorkingDirectory(resolve(shellDirectory, path), cwd);
    });
  });
}

/** Whether a rule covers this call (`permission-rules.ts`); an allow rule and a deny rule differ for Bash. */
export async function ruleMatches(rule: string, toolName: string, input: unknown, kind: 'allow' | 'deny' = 'allow', cwd: string = process.cwd()): Promise<boolean> {
  return (await firstCoveringRule(kind, [rule], toolName, asRecord(input), { cwd })) !== undefined;
}

/** The file tools whose question claude 2.1.334 describes by the file's path. */
const PATH_DESCRIBED_TOOLS = new Set(['Read', 'Write', 'Edit']);

/**
 * What claude 2.1.334 says of a call it asks about besides the input (probed, test/agent-sdk/conf-questions.test.ts):
 * `display_name` (the tool's name) and `description`: a Bash call's own description, or its command when it has
 * none; a file tool's path, relative to the working directory when inside it. Other tools' are not probed: none.
 */
export function questionFields(toolName: string, fields: Record<string, unknown>, cwd: string): JsonObject {
  if (toolName === 'Bash') {
    const said = typeof fields.description === 'string' && fields.description !== '' ? fields.description : fields.command;
    return typeof said === 'string' ? { display_name: toolName, description: said } : {};
  }
  if (!PATH_DESCRIBED_TOOLS.has(toolName) || typeof fields.file_path !== 'string') return {};
  const path = resolve(cwd, fields.file_path);
  return { display_name: toolName, description: path !== cwd && isInside(cwd, path) ? relative(cwd, path) : path };
}

export interface SdkPermissionOptions {
  mode(): PermissionMode;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  /** Asks the program (`can_use_tool`); absent: calls that need asking are denied. */
  ask?: (request: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  /** The session's own rules and its "always allow" updates (permission-updates.ts). */
  session?: SessionRules;
  /** Receives every denial. */
  onDenial(denial: PermissionDenial): void;
  /** Receives each denial decided without asking (no rule allowed the call and nobody could be asked, or a deny rule). */
  onUnaskedDenial?(denial: UnaskedDenial): void;
  /** What relative paths in calls and rules are relative to (the tools' root); default the process's. */
  cwd?: string;
}

/** A denial no one was asked about: what claude's `system/permission_denied` carries. */
export interface UnaskedDenial {
  tool_name: string;
  tool_use_id: string;
  /** The text of the error tool_result. */
  message: string;
  /**
   * What decided: `subcommandResults` (a Bash deny rule, as claude 2.1.334 says), `rule` (another deny rule) or
   * `mode` (plan, dontAsk); absent: nobody could be asked.
   */
  decision_reason_type?: DenialReason;
}

type DenialReason = 'subcommandResults' | 'rule' | 'mode';
type Decision = PermissionResult & { unasked?: { reason?: DenialReason } };

/** What a session added (`updatedPermissions`): rules checked after the flags', suggestions, and the updates to apply. */
export interface SessionRules {
  rules: Readonly<Record<'allow' | 'deny' | 'ask', readonly string[]>>;
  suggest(toolName: string, input: Record<string, unknown>): Promise<JsonObject[]>;
  apply(updates: unknown): void;
}

function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** Our `canUseTool` for an SDK run. */
export function createSdkCanUseTool(options: SdkPermissionOptions): CanUseTool {
  const cwd = options.cwd ?? process.cwd();
  const decide = async (tool: Tool, input: unknown, toolUseId: string, signal: AbortSignal, hookAllowed: boolean): Promise<Decision> => {
    const fields = asRecord(input);
    const command = commandParser(fields);
    const rules = options.session?.rules;
    const denied = await firstCoveringRule('deny', [...options.disallowedTools, ...(rules?.deny ?? [])], tool.name, fields, { cwd }, command);
    if (denied !== undefined) {
      // As claude 2.1.334 words a Bash deny rule; another tool's keeps turnloop's words (not probed).
      if (tool.name === 'Bash' && typeof fields.command === 'string') return { behavior: 'deny', message: bashDenyRuleText(fields.command), exactMessage: true, unasked: { reason: 'subcommandResults' } };
      return { behavior: 'deny', message: `${tool.name} is in the disallowed tools (${denied})`, unasked: { reason: 'rule' } };
    }
    const askRule = rules && (await firstCoveringRule('allow', rules.ask, tool.name, fields, { cwd }, command)) !== undefined;
    if (hookAllowed || (!askRule && (await firstCoveringRule('allow', [...options.allowedTools, ...(rules?.allow ?? [])], tool.name, fields, { cwd }, command)) !== undefined)) return { behavior: 'allow' };
    const mode = options.mode();
    // The subagent tool asks inside: its subagent's own calls are checked one by one.
    if (mode === 'bypassPermissions' || isSubagentToolName(tool.name)) return { behavior: 'allow' };
    const readOnly = tool.isReadOnly(input);
    if (mode === 'plan') return readOnly ? { behavior: 'allow' } : { behavior: 'deny', message: 'Plan mode: only read-only tools may run', unasked: { reason: 'mode' } };
    if (readOnly) return { behavior: 'allow' };
    if (mode === 'acceptEdits' && (EDIT_TOOLS.has(tool.name) || (tool.name === 'Bash' && (await isFilesystemCommand(fields.command, cwd, hasWorkingDirectory(tool) ? tool.workingDirectory() : cwd))))) {
      return { behavior: 'allow' };
    }
    if (mode === 'dontAsk' || !options.ask) {
      if (mode === 'dontAsk') return { behavior: 'deny', message: dontAskModeText(tool.name), exactMessage: true, unasked: { reason: 'mode' } };
      if (tool.name === 'Bash' && typeof fields.command === 'string' && (await expandsVariable(fields.command))) return { behavior: 'deny', message: VARIABLE_IN_COMMAND_TEXT, exactMessage: true, unasked: {} };
      return { behavior: 'deny', message: 'the call needs approval and the program gave no canUseTool', unasked: {} };
    }
    const suggestions = (await options.session?.suggest(tool.name, fields)) ?? [];
    const answer = await options.ask({ subtype: 'can_use_tool', tool_name: tool.name, input: fields, ...(suggestions.length ? { permission_suggestions: suggestions } : {}), ...questionFields(tool.name, fields, cwd), tool_use_id: toolUseId }, signal);
    if (answer.behavior === 'allow') {
      // An "always allow": a malformed or refused update throws (the call is denied with its text).
      if (answer.updatedPermissions !== undefined) options.session?.apply(answer.updatedPermissions);
      return answer.updatedInput === undefined ? { behavior: 'allow' } : { behavior: 'allow', updatedInput: answer.updatedInput };
    }
    // As claude: the program's own message is the whole text of the error tool_result.
    if (typeof answer.message === 'string' && answer.message.trim() !== '') return { behavior: 'deny', message: answer.message, exactMessage: true };
    return { behavior: 'deny', message: 'The program denied this call' };
  };
  return async (tool, input, ctx) => {
    let decision: Decision;
    try {
      decision = await decide(tool, input, ctx.toolUseId, ctx.signal, ctx.hookDecision === 'allow');
    } catch (error) {
      decision = { behavior: 'deny', message: messageOf(error) };
    }
    const { unasked, ...result } = decision;
    if (result.behavior !== 'deny') return result;
    options.onDenial({ tool_name: tool.name, tool_use_id: ctx.toolUseId, tool_input: asRecord(input) });
    if (unasked) {
      options.onUnaskedDenial?.({ tool_name: tool.name, tool_use_id: ctx.toolUseId, message: result.exactMessage && result.message ? result.message : permissionDeniedText(tool.name, result.message), ...(unasked.reason ? { decision_reason_type: unasked.reason } : {}) });
    }
    return result;
  };
}
