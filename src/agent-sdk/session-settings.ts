/**
 * What one SDK session is given (`HeadlessSession`, headless-session.ts): its settings from the command line and the
 * `initialize` request, the program's hooks, the effects it may use, and what a turn returns.
 */
import type { ModelCaller, StopHook } from '../data/deps.ts';
import type { ThinkingParam } from '../data/state.ts';
import type { EffortLevel } from '../config/model-effort.ts';
import type { PostToolHook, PreToolHook } from '../tools/call-deps.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { JsonObject } from './json-lines.ts';
import type { PermissionMode } from './permission-modes.ts';
import type { SettingsProblem } from './settings-permissions.ts';
import type { SettingSource } from './setting-sources.ts';
import type { SessionTasks } from './session-tasks.ts';
import type { StructuredOutput } from './structured-output.ts';

export interface SessionSettings {
  sessionId: string;
  cwd: string;
  model?: string;
  /** `--fallback-model`: used after repeated overloads (the loop's `fallbackModel`). */
  fallbackModel?: string;
  /** The request's `thinking` for a model and its `max_tokens` (request-options.ts). */
  thinking?: (model: string, maxTokens: number) => ThinkingParam | undefined;
  /** `--task-budget`: `output_config.task_budget.total` on every request. */
  taskBudget?: number;
  /** `--effort`: `output_config.effort` on every request whose model takes it (src/config/model-effort.ts). */
  effort?: EffortLevel;
  permissionMode: PermissionMode;
  /** `--setting-sources`: which settings files' permission updates apply in the session (permission-updates.ts); default all. */
  settingSources?: readonly SettingSource[];
  maxTurns?: number;
  maxBudgetUsd?: number;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  /** `permissions.ask` of the settings files read (settings-permissions.ts): asked even when an allow rule covers the call. */
  askRules?: readonly string[];
  /** What was wrong with the settings files read: reported once, after the first `system/init`. */
  settingsProblems?: readonly SettingsProblem[];
  partialMessages: boolean;
  /** The session log, or undefined with `--no-session-persistence`. */
  logPath?: string;
  systemPrompt: string[];
  /** Tool names asked for that turnloop does not have (listed in `init`). */
  unknownTools: readonly string[];
  /**
   * Offline (a fake-API script): retries back off in milliseconds, not seconds, so a script that runs out (the fake
   * API then answers 500) ends the turn in about a second instead of minutes of backoff.
   */
  quickRetries?: boolean;
  /** Whether a subagent's own messages are written too (the `initialize` request's `forwardSubagentText`). */
  forwardSubagentText?: () => boolean;
  /** Read at each turn's `init` (servers connect during `initialize`). */
  mcpServers(): ReadonlyArray<{ name: string; status: string }>;
  /** The agents a Task call can start (built-in and the program's), for `init`. */
  agents(): readonly string[];
  /** The skills of the setting sources, for `init`. */
  skills: readonly string[];
  /** Where the API key came from, as the real executable names it (`ANTHROPIC_API_KEY`, or `none` offline). */
  apiKeySource: string;
  /** `--add-dir` directories. */
  additionalDirectories: readonly string[];
  /** Memory files and the skill list, given to the model before the session's first prompt. */
  startContext?: string;
}

export interface SessionHooks {
  preToolHooks: PreToolHook[];
  postToolHooks: PostToolHook[];
  stopHooks: StopHook[];
}

export interface SessionDeps {
  callModel: ModelCaller;
  tools(): readonly Tool[];
  write(message: JsonObject): void;
  warn(text: string): void;
  /** Asks the program whether a call may run (`can_use_tool`); absent: such calls are denied. */
  ask?: (request: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  hooks(): SessionHooks;
  /** `--json-schema`: the StructuredOutput tool's per-turn state (the tool itself is among `tools()`). */
  structuredOutput?: Pick<StructuredOutput, 'beginTurn' | 'outcome'>;
  /** The session's subagent tasks (session-tasks.ts): a background child's messages are shown as the real executable shows them. */
  tasks?: Pick<SessionTasks, 'isBackground' | 'messageFields' | 'progress'>;
  /** What the settings' SessionStart hooks give the model (sdk-hooks.ts), opening a new session's first prompt. */
  sessionStartReminders?: () => Promise<readonly string[]>;
}

export interface TurnOutcome {
  result: JsonObject;
  isError: boolean;
}
