/**
 * What a permission rule (`--allowedTools` / `--disallowedTools`: `Bash`, `Bash(git status)`, `Bash(npm run:*)`,
 * `Read(src/**)`, `Edit(.env)`, `mcp__server`, `mcp__server__tool`) covers, as Claude Code matches them. The rules,
 * in words, are in docs/security.md ("Permission rules").
 *
 * Invariants:
 * - Bash rules match parsed commands (`shell-commands.ts`), never the raw text. An allow rule covers a command only
 *   when it covers EVERY simple command in it (those in substitutions too), none has variable assignments in front,
 *   and no redirection writes a file (`/dev/null` and descriptor copies such as `2>&1` aside). A deny rule covers a
 *   command when it covers ANY simple command in it, compared by the program's base name (`/bin/rm` is `rm`), looking
 *   through wrappers (`sudo`, `env`, `xargs`, `timeout`...) and into `sh -c` / `eval` text.
 * - Fail closed: a command that cannot be parsed is covered by no allow rule and by every deny rule that names
 *   Bash; so is a command whose program, or a word a deny rule compares, is only known when it runs (`$X`, `r*`).
 * - Path rules compare the path as the tool will resolve it (against the working directory, `.` and `..` removed),
 *   so `./x`, `/abs/cwd/x` and `sub/../x` are all `x`.
 */
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import picomatch from 'picomatch';
import { parseShellCommand, type ParsedShellCommand, type SimpleCommand } from './shell-commands.ts';
import { isSubagentToolName } from './subagent-tool-names.ts';

/** Tools whose calls a `Read(...)` rule covers, and those an `Edit(...)` rule covers (as in Claude Code). */
const READ_TOOLS = new Set(['Read', 'Glob', 'Grep', 'NotebookRead']);
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** Programs that run the command given in their arguments (what a deny rule looks through). */
const WRAPPERS = new Set(['sudo', 'doas', 'su', 'env', 'command', 'builtin', 'exec', 'coproc', 'nohup', 'nice', 'ionice', 'time', 'timeout', 'stdbuf', 'xargs', 'setsid', 'chrt', 'taskset', 'unbuffer', 'watch', 'strace', 'flock', 'find', 'parallel', 'busybox', 'script']);
/** Shells whose `-c` text is a command; `eval` and `trap`, whose arguments are. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'su', 'script']);
/** How deep a deny rule follows `sh -c '...'` inside `sh -c '...'`: deeper is treated as covered. */
const MAX_NESTING = 4;

export interface ParsedRule {
  tool: string;
  /** The text between the parentheses; undefined for a rule naming the tool alone. */
  pattern?: string;
}

export function parseRule(rule: string): ParsedRule {
  const open = rule.indexOf('(');
  if (open === -1 || !rule.endsWith(')')) return { tool: rule.trim() };
  return { tool: rule.slice(0, open).trim(), pattern: rule.slice(open + 1, -1) };
}

function ruleNamesTool(ruleTool: string, toolName: string, hasPattern: boolean): boolean {
  if (ruleTool === toolName) return true;
  // The subagent tool answers to both its names (claude 2.1.334 calls it `Agent`, rules written for `Task` still hold).
  if (isSubagentToolName(ruleTool) && isSubagentToolName(toolName)) return true;
  if (ruleTool.startsWith('mcp__') && toolName.startsWith(`${ruleTool}__`)) return true;
  // `Read(path)` and `Edit(path)` cover the tools of their kind, as in Claude Code.
  return hasPattern && ((ruleTool === 'Read' && READ_TOOLS.has(toolName)) || (ruleTool === 'Edit' && EDIT_TOOLS.has(toolName)));
}

type Words = ReadonlyArray<string | null>;
/** Whether a rule's pattern covers these words: yes, no, or cannot tell (a compared word is known only at run time). */
type Verdict = 'yes' | 'no' | 'unknown';

function patternCovers(pattern: string, words: Words, from = 0, program?: string): Verdict {
  const word = (i: number) => (i === from && program !== undefined ? program : words[i]!);
  const length = words.length - from;
  const trimmed = pattern.trim();
  // `npm run:*` and `npm run *` (the form claude 2.1.334 suggests) both cover `npm run` and any words after it.
  if (trimmed.endsWith(':*') || / \*$/.test(trimmed) || !trimmed.endsWith('*')) {
    const prefix = trimmed.endsWith(':*') || / \*$/.test(trimmed);
    const expected = (prefix ? trimmed.slice(0, -2) : trimmed).split(/\s+/).filter((w) => w !== '');
    if (prefix ? length < expected.length : length !== expected.length) return 'no';
    let unknown = false;
    for (let i = 0; i < expected.length; i++) {
      const actual = word(from + i);
      if (actual === null) unknown = true;
      else if (actual !== expected[i]) return 'no';
    }
    return unknown ? 'unknown' : 'yes';
  }
  // An old-style `Bash(ls*)`: a prefix of the command's text.
  const start = trimmed.slice(0, -1).replace(/\*+$/, '');
  let text = '';
  for (let i = from; i < words.length && text.length < start.length; i++) {
    const actual = word(i);
    if (actual === null) return start.startsWith(text) ? 'unknown' : 'no';
    text += i === from ? actual : ` ${actual}`;
  }
  return text.startsWith(start) ? 'yes' : 'no';
}

/** Redirections that write no file: to /dev/null, descriptor copies and closes (`2>&1`, `>&-`), and inputs. */
export function writesAFile(redirection: ParsedShellCommand['redirections'][number]): boolean {
  const { operator, target } = redirection;
  if (operator === '<' || operator === '<<' || operator === '<<<' || operator === '<<-' || operator === '<&') return false;
  if (target === '/dev/null') return false;
  if (operator === '>&' && target !== null && /^(\d+|-)$/.test(target)) return false;
  return true;
}

/** Whether an allow rule's pattern covers the whole (parsed) command. */
export function allowCoversCommand(pattern: string, parsed: ParsedShellCommand | null): boolean {
  if (parsed === null || parsed.commands.length === 0) return false;
  if (parsed.redirections.some(writesAFile)) return false;
  return parsed.commands.every((command) => command.assignments === 0 && command.words.length > 0 && patternCovers(pattern, command.words) === 'yes');
}

/** The command text a program runs from its arguments (`sh -c TEXT`, `eval WORDS`, `trap TEXT SIGNAL`): none, a text, or unknown. */
function commandTextOf(program: string, args: ReadonlyArray<string | null>): string | null | undefined {
  if (program === 'eval') return args.some((w) => w === null) ? null : args.join(' ');
  if (program === 'trap') return args[0];
  if (SHELLS.has(program)) {
    const flag = args.findIndex((w) => w === null || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w));
    if (flag === -1) return undefined;
    return args[flag] === null ? null : args[flag + 1];
  }
  return undefined;
}

async function denyCoversText(pattern: string, text: string | null, depth: number): Promise<boolean> {
  if (text === null || depth >= MAX_NESTING) return true;
  const parsed = await parseShellCommand(text);
  if (parsed === null) return true;
  for (const command of parsed.commands) if (await denyCoversSimple(pattern, command, depth + 1)) return true;
  return false;
}

/**
 * Whether a deny rule's pattern covers one simple command: from its program, or, after a wrapper, from any later
 * word (every suffix is tried, so wrappers of wrappers need no recursion and the work stays linear); the text a
 * shell, `eval` or `trap` runs, and a wrapper's arguments that hold spaces (`env -S 'rm -rf d'`), are parsed and
 * checked in turn, at most `MAX_NESTING` deep.
 */
async function denyCoversSimple(pattern: string, command: SimpleCommand, depth: number): Promise<boolean> {
  const { words } = command;
  if (words.length === 0) return false;
  const wrapped = words[0] !== null && WRAPPERS.has(basename(words[0]!));
  for (let i = 0; i < (wrapped ? words.length : 1); i++) {
    const program = words[i];
    // A program known only when it runs could be any program.
    if (program === null || program === undefined) return true;
    const name = basename(program);
    if (patternCovers(pattern, words, i, name) !== 'no') return true;
    const text = SHELLS.has(name) || name === 'eval' || name === 'trap' ? commandTextOf(name, words.slice(i + 1)) : undefined;
    if (text !== undefined && (await denyCoversText(pattern, text, depth))) return true;
    if (i > 0 && /\s/.test(program) && (await denyCoversText(pattern, program, depth))) return true;
  }
  return false;
}

/** Whether a deny rule's pattern covers any part of the (parsed) command. */
export async function denyCoversCommand(pattern: string, parsed: ParsedShellCommand | null): Promise<boolean> {
  if (parsed === null) return true;
  for (const command of parsed.commands) if (await denyCoversSimple(pattern, command, 0)) return true;
  return false;
}

/** The path a tool call names (`file_path`, `notebook_path`, `path`), resolved as the tool resolves it. */
function pathOfCall(input: Record<string, unknown>, cwd: string): string | null {
  const value = input.file_path ?? input.notebook_path ?? input.path;
  if (typeof value !== 'string' || value === '') return null;
  return resolve(cwd, value);
}

/**
 * Whether a path pattern covers `path` (absolute): `//abs/path` and `~/path` are absolute; any other pattern is
 * relative to the working directory (a leading `/` too, as for a settings file beside it). Glob syntax is
 * picomatch's; a pattern with no glob also covers everything under a directory of that name.
 */
export function pathPatternCovers(pattern: string, path: string, cwd: string): boolean {
  const base = pattern.startsWith('//') ? '/' : pattern.startsWith('~/') ? homedir() : cwd;
  const body = pattern.startsWith('//') ? pattern.slice(2) : pattern.startsWith('~/') ? pattern.slice(2) : pattern.replace(/^\/+/, '');
  const rel = relative(base, path).split(sep).join('/');
  if (rel.startsWith('../') || rel === '..' || isAbsolute(rel)) return false;
  const normalized = body.split('/').filter((part) => part !== '' && part !== '.').join('/');
  if (normalized === '' || normalized === '**') return true;
  const matcher = picomatch(normalized, { dot: true });
  return matcher(rel) || (!picomatch.scan(normalized).isGlob && rel.startsWith(`${normalized}/`));
}

export interface RuleContext {
  cwd: string;
}

/** The call's command, parsed once per decision. */
export type CommandOf = () => Promise<ParsedShellCommand | null>;

function commandParser(input: Record<string, unknown>): CommandOf {
  let parsed: Promise<ParsedShellCommand | null> | undefined;
  return () => (parsed ??= typeof input.command === 'string' ? parseShellCommand(input.command) : Promise.resolve(null));
}

async function ruleCovers(kind: 'allow' | 'deny', rule: string, toolName: string, input: Record<string, unknown>, context: RuleContext, command: CommandOf): Promise<boolean> {
  const { tool, pattern } = parseRule(rule);
  if (!ruleNamesTool(tool, toolName, pattern !== undefined)) return false;
  if (pattern === undefined) return true;
  if (toolName === 'Bash') return kind === 'allow' ? allowCoversCommand(pattern, await command()) : denyCoversCommand(pattern, await command());
  const path = pathOfCall(input, context.cwd);
  if (path !== null) return pathPatternCovers(pattern, path, context.cwd);
  // Other tools: the pattern against the call's main text field, exactly or as a `prefix:*` / `prefix*`.
  const subject = String(input.pattern ?? input.url ?? input.query ?? '');
  if (pattern.endsWith(':*')) return subject === pattern.slice(0, -2) || subject.startsWith(`${pattern.slice(0, -2)} `);
  if (pattern.endsWith('*')) return subject.startsWith(pattern.slice(0, -1).replace(/\*+$/, ''));
  return subject === pattern;
}

/** The first rule of `rules` that covers the call, if any. */
export async function firstCoveringRule(kind: 'allow' | 'deny', rules: readonly string[], toolName: string, input: Record<string, unknown>, context: RuleContext, command: CommandOf = commandParser(input)): Promise<string | undefined> {
  for (const rule of rules) if (await ruleCovers(kind, rule, toolName, input, context, command)) return rule;
  return undefined;
}

export { commandParser };
