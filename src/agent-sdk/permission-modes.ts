/**
 * Claude Code's permission rules for an SDK run (docs/agent-sdk.md): `disallowedTools` deny first; `allowedTools`
 * allow; then the mode: `bypassPermissions` allows everything, `plan` allows only read-only calls, `acceptEdits`
 * allows file edits (Edit, Write) and plain filesystem commands (mkdir, touch, rm, mv, cp...), `dontAsk` denies
 * what no rule allowed; otherwise a read-only call is allowed and
 * any other call is asked about: through a `can_use_tool` control request when the program gave `canUseTool`
 * (`--permission-prompt-tool stdio`), else denied. Every denial is recorded for the result's `permission_denials`.
 */
import type { CanUseTool } from '../effects/tools/call-deps.ts';
import type { PermissionResult, Tool } from '../effects/tools/define-tool.ts';
import type { JsonObject } from './json-lines.ts';
import type { PermissionDenial } from './result-message.ts';
import { messageOf } from '../errors/message-of.ts';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** Tools whose calls change files (what `acceptEdits` allows). */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/**
 * Shell commands `acceptEdits` runs unasked, as Claude Code does: simple filesystem commands. Only a plain command
 * (no operators, redirections or substitutions) whose program is one of these.
 */
const FILESYSTEM_COMMANDS = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp']);

export function isFilesystemCommand(command: unknown): boolean {
  if (typeof command !== 'string' || /[;&|<>`$()\n\\]/.test(command)) return false;
  const program = command.trim().split(/\s+/)[0];
  return program !== undefined && FILESYSTEM_COMMANDS.has(program);
}

/** Tools that ask inside (a subagent's own calls are checked one by one). */
const ASKED_INSIDE = new Set(['Task', 'Agent']);

/**
 * Whether a rule (`Bash`, `Bash(git status)`, `Bash(npm run:*)`, `Read(src/**)`, `mcp__server`, `mcp__server__tool`)
 * covers this call.
 */
export function ruleMatches(rule: string, toolName: string, input: unknown): boolean {
  const open = rule.indexOf('(');
  const name = open === -1 ? rule : rule.slice(0, open);
  if (name !== toolName && !(name.startsWith('mcp__') && toolName.startsWith(`${name}__`))) return false;
  if (open === -1 || !rule.endsWith(')')) return open === -1;
  const pattern = rule.slice(open + 1, -1);
  const fields = (input ?? {}) as Record<string, unknown>;
  const subject = String(fields.command ?? fields.file_path ?? fields.path ?? fields.pattern ?? '');
  if (pattern.endsWith(':*')) return subject === pattern.slice(0, -2) || subject.startsWith(`${pattern.slice(0, -2)} `);
  if (pattern.endsWith('*')) return subject.startsWith(pattern.slice(0, -1).replace(/\*+$/, ''));
  return subject === pattern;
}

export interface SdkPermissionOptions {
  mode(): PermissionMode;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  /** Asks the program (`can_use_tool`); absent: calls that need asking are denied. */
  ask?: (request: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  /** Receives every denial. */
  onDenial(denial: PermissionDenial): void;
}

function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** Our `canUseTool` for an SDK run. */
export function createSdkCanUseTool(options: SdkPermissionOptions): CanUseTool {
  const decide = async (tool: Tool, input: unknown, toolUseId: string, signal: AbortSignal, hookAllowed: boolean): Promise<PermissionResult> => {
    if (options.disallowedTools.some((rule) => ruleMatches(rule, tool.name, input))) {
      return { behavior: 'deny', message: `${tool.name} is in the disallowed tools` };
    }
    if (hookAllowed || options.allowedTools.some((rule) => ruleMatches(rule, tool.name, input))) return { behavior: 'allow' };
    const mode = options.mode();
    if (mode === 'bypassPermissions' || ASKED_INSIDE.has(tool.name)) return { behavior: 'allow' };
    const readOnly = tool.isReadOnly(input);
    if (mode === 'plan') return readOnly ? { behavior: 'allow' } : { behavior: 'deny', message: 'Plan mode: only read-only tools may run' };
    if (readOnly) return { behavior: 'allow' };
    if (mode === 'acceptEdits' && (EDIT_TOOLS.has(tool.name) || (tool.name === 'Bash' && isFilesystemCommand((input as { command?: unknown } | null)?.command)))) {
      return { behavior: 'allow' };
    }
    if (mode === 'dontAsk' || !options.ask) {
      return { behavior: 'deny', message: mode === 'dontAsk' ? 'dontAsk mode: calls that no rule allows are denied' : 'the call needs approval and the program gave no canUseTool' };
    }
    const answer = await options.ask({ subtype: 'can_use_tool', tool_name: tool.name, input: asRecord(input), tool_use_id: toolUseId }, signal);
    if (answer.behavior === 'allow') {
      return answer.updatedInput === undefined ? { behavior: 'allow' } : { behavior: 'allow', updatedInput: answer.updatedInput };
    }
    return { behavior: 'deny', message: typeof answer.message === 'string' ? answer.message : 'The program denied this call' };
  };
  return async (tool, input, ctx) => {
    let result: PermissionResult;
    try {
      result = await decide(tool, input, ctx.toolUseId, ctx.signal, ctx.hookDecision === 'allow');
    } catch (error) {
      result = { behavior: 'deny', message: messageOf(error) };
    }
    if (result.behavior === 'deny') options.onDenial({ tool_name: tool.name, tool_use_id: ctx.toolUseId, tool_input: asRecord(input) });
    return result;
  };
}
