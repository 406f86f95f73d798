/**
 * The headless command line of Claude Code, as the Agent SDK's `query()` and `claude -p` pipelines write it
 * (docs/agent-sdk.md): `--flag=value` and `--flag value` both work. Flags turnloop does not implement are collected
 * (the caller names them once on stderr) and ignored: the SDK adds flags with every release, and refusing them
 * would break every upgrade. Bad values of the flags we do implement are a `HeadlessArgsError` (exit 2).
 * As with the real executable (probed with claude 2.1.334): `--` ends the options, so `-p -- -h` sends the prompt
 * `-h`; a flag's value is never an option (`--system-prompt -h` is a system prompt); the prompt is the first
 * positional argument, and later ones are ignored (named among the ignored options). Short options are claude's
 * (`-p -h -v -c -d -r -n -w`), read as its option parser reads them: `-pv` is `-p -v`, and a letter that takes a value
 * takes the rest of its group or the next argument; any other short option is a `HeadlessArgsError`, as claude
 * refuses it (`unknown option '-x'`), where it used to become the prompt.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface HeadlessArgs {
  outputFormat: OutputFormat;
  inputFormat: 'text' | 'stream-json';
  /** `-p "<prompt>"` (the shell form): the first positional argument, as the real executable takes it. */
  prompt?: string;
  print: boolean;
  /** `-h` or `--help` as an option (not after `--`, not the value of a flag): print the help, run nothing. */
  help: boolean;
  /** `-v` (claude's short `--version`): print the version, run nothing. */
  version: boolean;
  verbose: boolean;
  maxTurns?: number;
  maxBudgetUsd?: number;
  model?: string;
  fallbackModel?: string;
  permissionMode?: string;
  /** `stdio`: ask the SDK program (`can_use_tool` control requests); anything else is an MCP tool we do not run. */
  permissionPromptTool?: string;
  allowedTools: string[];
  disallowedTools: string[];
  /** `--tools`: the built-in tools offered; `['default']` or absent = all. */
  tools?: string[];
  resume?: string;
  sessionId?: string;
  forkSession: boolean;
  continueLatest: boolean;
  includePartialMessages: boolean;
  mcpConfigs: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  addDirs: string[];
  noSessionPersistence: boolean;
  /** `--thinking` (adaptive, enabled, disabled) and `--max-thinking-tokens` (request-options.ts). */
  thinking?: string;
  maxThinkingTokens?: number;
  /** `--thinking-display` (the SDK's `thinking.display`; checked by request-options.ts). */
  thinkingDisplay?: string;
  /** `--task-budget`: tokens, sent as `output_config.task_budget` on every request. */
  taskBudget?: number;
  /** `--effort`: the level asked for (checked by request-options.ts). */
  effort?: string;
  /** `--setting-sources`: the raw list (checked by setting-sources.ts); absent = the real executable's default. */
  settingSources?: string;
  /** `--agent`: the program's agent the main thread runs as (main-agent.ts). */
  agent?: string;
  /** `--settings`: inline JSON or a file path (read by flag-settings.ts). */
  settings?: string;
  /** turnloop's own: a file that receives, at exit, the requests the fake API answered (JSON lines). */
  fakeApiLog?: string;
  /** `--json-schema`: the SDK's `outputFormat` schema, as JSON text (checked by structured-output.ts). */
  jsonSchema?: string;
  /** turnloop's own: a fake-API script (the format `turnloop resume --fake-api` takes) for an offline run. */
  fakeApi?: string;
  /** Flags we accept and ignore, each named once (with its value if it had one). */
  ignored: string[];
}

export class HeadlessArgsError extends TurnloopError {
  constructor(message: string) {
    super('HEADLESS_ARGS', message);
    this.name = 'HeadlessArgsError';
  }
}

/** Flags that take a value (implemented or not): `--flag value` then consumes the next argument. */
const VALUE_FLAGS = new Set([
  'output-format', 'input-format', 'max-turns', 'max-budget-usd', 'task-budget', 'model', 'fallback-model', 'agent', 'betas',
  'json-schema', 'debug-file', 'permission-prompt-tool', 'permission-prompts', 'permission-mode', 'resume', 'channels',
  'allowedTools', 'allowed-tools', 'disallowedTools', 'disallowed-tools', 'tools', 'mcp-config', 'setting-sources',
  'project-config-root', 'add-dir', 'plugin-dir', 'plugin-dir-no-mcp', 'resume-session-at', 'resume-drops-turn',
  'session-id', 'initialize-fields', 'managed-settings', 'max-thinking-tokens', 'thinking', 'thinking-display', 'effort',
  'system-prompt', 'append-system-prompt', 'settings', 'fake-api', 'fake-api-log', 'cwd',
]);

/** Flags that never take a value. */
const BOOLEAN_FLAGS = new Set([
  'verbose', 'debug', 'continue', 'strict-mcp-config', 'allow-dangerously-skip-permissions', 'dangerously-skip-permissions',
  'include-hook-events', 'include-partial-messages', 'session-mirror', 'await-initialize', 'fork-session',
  'no-session-persistence', 'managed-settings-in-initialize', 'print',
]);

/** Flags turnloop implements; every other known or unknown flag lands in `ignored`. */
const IMPLEMENTED = new Set([
  'output-format', 'input-format', 'max-turns', 'max-budget-usd', 'model', 'fallback-model', 'permission-mode',
  'permission-prompt-tool', 'allowedTools', 'allowed-tools', 'disallowedTools', 'disallowed-tools', 'tools', 'resume',
  'session-id', 'fork-session', 'continue', 'include-partial-messages', 'mcp-config', 'system-prompt',
  'append-system-prompt', 'add-dir', 'no-session-persistence', 'fake-api', 'verbose', 'print', 'debug',
  'dangerously-skip-permissions', 'fake-api-log', 'json-schema', 'setting-sources', 'thinking', 'max-thinking-tokens', 'task-budget',
  'effort', 'settings', 'agent', 'thinking-display',
]);

export { isHeadlessInvocation } from './headless-invocation.ts';

function toolList(value: string): string[] {
  // `--allowedTools "Read,Bash(git:*)"` or space-separated; a pattern's parentheses may hold commas of their own.
  return value.match(/[^,\s(]+(?:\([^)]*\))?/g) ?? [];
}

function positiveNumber(flag: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new HeadlessArgsError(`--${flag} expects a positive ${integer ? 'integer' : 'number'}, got '${value}'`);
  }
  return n;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new HeadlessArgsError(`--${flag} expects one of ${allowed.join(', ')}, got '${value}'`);
}

/** Parses the headless command line. Pure: no I/O; unknown flags are returned, not printed. */
export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs {
  const args: HeadlessArgs = {
    outputFormat: 'text', inputFormat: 'text', print: false, verbose: false, allowedTools: [], disallowedTools: [],
    forkSession: false, continueLatest: false, includePartialMessages: false, mcpConfigs: [], addDirs: [],
    noSessionPersistence: false, help: false, version: false, ignored: [],
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (arg === '--help') { args.help = true; continue; }
    if (arg.length > 1 && arg[0] === '-' && arg[1] !== '-') { i = readShortOptions(args, argv, i); continue; }
    if (!arg.startsWith('--')) { positionals.push(arg); continue; }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    const takesValue = VALUE_FLAGS.has(name) || (!BOOLEAN_FLAGS.has(name) && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-') && !IMPLEMENTED.has(name) && !args.print);
    if (value === undefined && takesValue && VALUE_FLAGS.has(name)) {
      if (argv[i + 1] === undefined) throw new HeadlessArgsError(`--${name} expects a value`);
      value = argv[++i];
    } else if (value === undefined && takesValue) {
      value = argv[++i];
    }
    if (!IMPLEMENTED.has(name)) {
      args.ignored.push(value === undefined ? `--${name}` : `--${name} ${value}`);
      continue;
    }
    applyFlag(args, name, value ?? '');
  }
  if (positionals.length > 0) args.prompt = positionals[0];
  args.ignored.push(...positionals.slice(1).map((extra) => `the extra argument '${extra}'`));
  return args;
}

/** claude's short options (`claude --help`, 2.1.334): the long option each stands for, and whether it takes a value. */
const SHORT_OPTIONS: Readonly<Record<string, { long: string; value: 'none' | 'optional' | 'required' }>> = {
  p: { long: 'print', value: 'none' },
  h: { long: 'help', value: 'none' },
  v: { long: 'version', value: 'none' },
  c: { long: 'continue', value: 'none' },
  d: { long: 'debug', value: 'optional' },
  r: { long: 'resume', value: 'optional' },
  n: { long: 'name', value: 'required' },
  w: { long: 'worktree', value: 'optional' },
};

/**
 * One group of short options at `argv[at]` (`-p`, `-pv`, `-rID`, `-r ID`); the index of the last argument it used.
 * An optional value is the rest of the group, else the next argument unless that is an option.
 */
function readShortOptions(args: HeadlessArgs, argv: readonly string[], at: number): number {
  const group = argv[at];
  let last = at;
  for (let j = 1; j < group.length; j++) {
    const letter = group[j];
    const option = Object.hasOwn(SHORT_OPTIONS, letter) ? SHORT_OPTIONS[letter] : undefined;
    if (option === undefined) {
      const known = Object.keys(SHORT_OPTIONS).map((name) => `-${name}`).join(' ');
      throw new HeadlessArgsError(`unknown option '-${group.slice(j)}' (the short options are ${known}; put a prompt that starts with '-' after '--')`);
    }
    if (option.value === 'none') {
      applyShortOption(args, option.long, undefined);
      continue;
    }
    let value = j + 1 < group.length ? group.slice(j + 1) : undefined;
    const next = argv[last + 1];
    if (value === undefined && next !== undefined && (option.value === 'required' || !next.startsWith('-'))) {
      value = next;
      last++;
    }
    if (value === undefined && (option.value === 'required' || option.long === 'resume')) {
      throw new HeadlessArgsError(`-${letter} (--${option.long}) expects a value`);
    }
    applyShortOption(args, option.long, value);
    break;
  }
  return last;
}

function applyShortOption(args: HeadlessArgs, long: string, value: string | undefined): void {
  if (long === 'help') args.help = true;
  else if (long === 'version') args.version = true;
  else if (IMPLEMENTED.has(long) && (long !== 'debug' || value === undefined)) applyFlag(args, long, value ?? '');
  else args.ignored.push(value === undefined ? `--${long}` : `--${long} ${value}`);
}

function applyFlag(args: HeadlessArgs, name: string, value: string): void {
  switch (name) {
    case 'output-format': args.outputFormat = oneOf(name, value, ['text', 'json', 'stream-json'] as const); break;
    case 'input-format': args.inputFormat = oneOf(name, value, ['text', 'stream-json'] as const); break;
    case 'max-turns': args.maxTurns = positiveNumber(name, value, true); break;
    case 'max-budget-usd': args.maxBudgetUsd = positiveNumber(name, value, false); break;
    case 'model': args.model = value; break;
    case 'fallback-model': args.fallbackModel = value; break;
    case 'permission-mode': args.permissionMode = value; break;
    case 'permission-prompt-tool': args.permissionPromptTool = value; break;
    case 'allowedTools': case 'allowed-tools': args.allowedTools.push(...toolList(value)); break;
    case 'disallowedTools': case 'disallowed-tools': args.disallowedTools.push(...toolList(value)); break;
    case 'tools': args.tools = value === '' ? [] : toolList(value); break;
    case 'resume': args.resume = value; break;
    case 'session-id': args.sessionId = value; break;
    case 'fork-session': args.forkSession = true; break;
    case 'continue': args.continueLatest = true; break;
    case 'include-partial-messages': args.includePartialMessages = true; break;
    case 'mcp-config': args.mcpConfigs.push(value); break;
    case 'system-prompt': args.systemPrompt = value; break;
    case 'append-system-prompt': args.appendSystemPrompt = value; break;
    case 'add-dir': args.addDirs.push(value); break;
    case 'no-session-persistence': args.noSessionPersistence = true; break;
    case 'fake-api': args.fakeApi = value; break;
    case 'json-schema': args.jsonSchema = value; break;
    case 'fake-api-log': args.fakeApiLog = value; break;
    case 'setting-sources': args.settingSources = value; break;
    case 'settings': args.settings = value; break;
    case 'agent': args.agent = value; break;
    case 'thinking': args.thinking = value; break;
    case 'thinking-display': args.thinkingDisplay = value; break;
    case 'max-thinking-tokens': args.maxThinkingTokens = positiveNumber(name, value, true); break;
    case 'task-budget': args.taskBudget = positiveNumber(name, value, true); break;
    case 'effort': args.effort = value; break;
    case 'verbose': args.verbose = true; break;
    case 'print': args.print = true; break;
    case 'dangerously-skip-permissions': args.permissionMode = 'bypassPermissions'; break;
    case 'debug': break;
  }
}
