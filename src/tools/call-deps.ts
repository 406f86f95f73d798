/**
 * What one tool call needs from its host (`ToolCallDeps`): the registry, an id generator, the permission
 * callback, optional user hooks around each call, a per-call timeout and a clock. Plain configuration: nothing
 * here holds state, so one value serves every tool call of a run. Also the running tool-use context
 * (`ToolUseContextRef`), which the executors update as context patches apply.
 */
import type { ChildRunner } from './child-runs.ts';
import type { Message } from '../messages/types.ts';
import type { Clock, IdGenerator } from '../data/deps.ts';
import type { PermissionBehavior, PermissionResult, Tool, ToolCallResult, ToolContext } from './define-tool.ts';
import type { ToolRegistry } from './registry.ts';

export interface PreToolHookInput extends ToolContext {
  toolName: string;
  /** The input as validated so far (possibly changed by an earlier hook). */
  input: unknown;
  newId: IdGenerator;
}

/** Everything optional: a hook that returns nothing changes nothing. */
export interface PreToolHookResult {
  /** Messages to show before the result. */
  messages?: Message[];
  /** Text for the model, attached as a `context` attachment. */
  additionalContext?: string;
  /** Replaces the input (checked against the schema again). */
  updatedInput?: unknown;
  /** `allow` skips an `ask` but never overrides a `deny` of the tool or of `canUseTool`. */
  decision?: PermissionBehavior;
  reason?: string;
  /** A `deny` whose `reason` is the denied call's whole text (not wrapped in `Permission to use ... was denied`). */
  reasonIsText?: boolean;
  /** Let the tool run, then end the loop after this round of tools. */
  preventContinuation?: boolean;
  stopReason?: string;
  /** Do not run the tool at all: its result is an error naming `stopReason`. */
  stop?: boolean;
}

export interface PostToolHookInput extends ToolContext {
  toolName: string;
  input: unknown;
  /** What the call gave; for a tool that threw, its error result (`isError`: Claude Code's PostToolUseFailure). */
  result: ToolCallResult;
  newId: IdGenerator;
  /** How long the tool ran, in ms (Claude Code's PostToolUse `duration_ms`); absent where the call never started. */
  durationMs?: number;
}

export interface PostToolHookResult {
  messages?: Message[];
  additionalContext?: string;
  /** Shown to the model as a `hook_blocking_error` attachment. */
  blockingError?: string;
  preventContinuation?: boolean;
  stopReason?: string;
}

type MaybePromise<T> = T | Promise<T>;

export type PreToolHook = (input: PreToolHookInput) => MaybePromise<PreToolHookResult | void>;
export type PostToolHook = (input: PostToolHookInput) => MaybePromise<PostToolHookResult | void>;

export interface PermissionContext extends ToolContext {
  /** What the tool's own `checkPermissions` said. */
  toolDecision: PermissionResult;
  /** What the pre-tool hooks said, if anything. */
  hookDecision?: PermissionBehavior;
}

/** The host's permission rule. `ask` that nobody resolves (no hook `allow`) counts as a denial. */
export type CanUseTool = (tool: Tool, input: unknown, ctx: PermissionContext) => MaybePromise<PermissionResult>;

export interface ToolCallDeps {
  registry: ToolRegistry;
  newId: IdGenerator;
  canUseTool?: CanUseTool;
  preToolHooks?: readonly PreToolHook[];
  postToolHooks?: readonly PostToolHook[];
  /** Per-call timeout in ms; 0 or absent = none. */
  timeoutMs?: number;
  /** Used for the timeout; defaults to real timers. */
  clock?: Pick<Clock, 'sleep'>;
  /** Runs subagents for tool calls (`ToolContext.runChild`); set by `query()`. */
  runChild?: ChildRunner;
}

/**
 * The running tool-use context. Executors replace `current` with a new object whenever a context patch applies,
 * so a snapshot handed to a tool never changes under it.
 */
export interface ToolUseContextRef {
  current: Readonly<Record<string, unknown>>;
}

export function createToolUseContextRef(initial: Record<string, unknown> = {}): ToolUseContextRef {
  return { current: { ...initial } };
}

export function applyContextPatch(ref: ToolUseContextRef, patch: Record<string, unknown> | undefined): void {
  if (patch && Object.keys(patch).length > 0) ref.current = { ...ref.current, ...patch };
}
