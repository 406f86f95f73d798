/**
 * The SDK program's hooks (registered by `initialize` as callback ids per event and matcher) as our hooks: each
 * matching callback is a `hook_callback` control request, and its answer maps onto our hook results:
 * PreToolUse `permissionDecision` / `updatedInput` / `additionalContext` / `decision: 'block'`; PostToolUse
 * (PostToolUseFailure for a call that failed) `additionalContext` / `decision: 'block'`; Stop `decision: 'block'`; `continue: false` ends the loop with
 * `stopReason`. UserPromptSubmit runs before a turn (see `runPromptHooks`). A failing callback is reported on
 * stderr and changes nothing (the SDK's `onFailure: 'continue'`).
 */
import type { PostToolHook, PreToolHook, PreToolHookResult } from '../tools/call-deps.ts';
import type { StopHook } from '../data/deps.ts';
import type { Message } from '../messages/types.ts';
import type { JsonObject } from './json-lines.ts';
import { messageOf } from '../errors/message-of.ts';
import { HOOK_DENIAL_TEXT } from './permission-denial-texts.ts';
import { isSubagentToolName, SUBAGENT_TOOL_NAMES } from './subagent-tool-names.ts';

export interface HookMatcher {
  matcher?: string;
  hookCallbackIds: string[];
}

export type HookRegistry = Partial<Record<string, HookMatcher[]>>;

/**
 * Why the `hooks` of an `initialize` request are not a registry (events, each with its matchers), or undefined when
 * they are: the session refuses such an `initialize` with that reason instead of failing at the first hook.
 */
export function hookRegistryProblem(hooks: unknown): string | undefined {
  if (hooks === undefined || hooks === null) return undefined;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) return `hooks must be an object keyed by hook event, got ${JSON.stringify(hooks)}`;
  for (const [event, matchers] of Object.entries(hooks)) {
    if (!Array.isArray(matchers)) return `hooks.${event} must be an array of matchers, got ${JSON.stringify(matchers)}`;
    for (const [i, m] of (matchers as unknown[]).entries()) {
      const { matcher, hookCallbackIds } = (m ?? {}) as { matcher?: unknown; hookCallbackIds?: unknown };
      const ok = typeof m === 'object' && m !== null && (matcher == null || typeof matcher === 'string') && Array.isArray(hookCallbackIds) && hookCallbackIds.every((id) => typeof id === 'string');
      if (!ok) return `hooks.${event}[${i}] must be { matcher?: string, hookCallbackIds: string[] }, got ${JSON.stringify(m)}`;
    }
  }
  return undefined;
}

export interface HookContext {
  ask(request: JsonObject, signal?: AbortSignal): Promise<JsonObject>;
  /** The fields every hook input carries: session_id, transcript_path, cwd, permission_mode (and prompt_id once a prompt came). */
  base(): JsonObject;
  /** The turn's `effort` (`{ level }`), or undefined when the session's model takes none (EFFORT_EVENTS carry it). */
  effort?(): JsonObject | undefined;
  warn(text: string): void;
}

/** Claude Code's matcher: absent, empty or `*` match all; else a tool name, `A|B`, or a regular expression. */
export function matcherMatches(matcher: string | null | undefined, toolName: string): boolean {
  if (matcher == null || matcher === '' || matcher === '*') return true;
  // A matcher naming either of the subagent tool's names matches it, so a program's `Agent` hook fires on turnloop too.
  const names = isSubagentToolName(toolName) ? SUBAGENT_TOOL_NAMES : [toolName];
  if (/^[\w|]+$/.test(matcher)) return matcher.split('|').some((name) => names.includes(name));
  try {
    const pattern = new RegExp(`^(?:${matcher})$`);
    return names.some((name) => pattern.test(name));
  } catch {
    return false;
  }
}

/** The base fields of SubagentStart's input: claude 2.1.334 sends no `permission_mode` there. */
function withoutPermissionMode(base: JsonObject): JsonObject {
  const { permission_mode: _mode, ...rest } = base;
  return rest;
}

/** The events whose input carries `effort`, as claude 2.1.334 sends them: those that run inside a turn's tool use. */
const EFFORT_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop'];

async function callHooks(hooks: HookRegistry, event: string, subject: string, input: JsonObject, context: HookContext, toolUseId?: string, signal?: AbortSignal): Promise<JsonObject[]> {
  const ids = (hooks[event] ?? []).filter((m) => matcherMatches(m.matcher, subject)).flatMap((m) => m.hookCallbackIds);
  const answers: JsonObject[] = [];
  const effort = EFFORT_EVENTS.includes(event) ? context.effort?.() : undefined;
  const base = { ...(event === 'SubagentStart' ? withoutPermissionMode(context.base()) : context.base()), ...(effort ? { effort } : {}) };
  for (const id of ids) {
    try {
      answers.push(await context.ask({ subtype: 'hook_callback', callback_id: id, input: { ...base, hook_event_name: event, ...input }, ...(toolUseId ? { tool_use_id: toolUseId } : {}) }, signal));
    } catch (error) {
      context.warn(`${event} hook ${id} failed: ${messageOf(error)}`);
    }
  }
  return answers;
}

function specific(answer: JsonObject): JsonObject {
  return (answer.hookSpecificOutput as JsonObject | undefined) ?? {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function joined(parts: Array<string | undefined>): string | undefined {
  const present = parts.filter((p): p is string => p !== undefined);
  return present.length === 0 ? undefined : present.join('\n');
}

export function sdkPreToolHook(hooks: HookRegistry, context: HookContext): PreToolHook {
  return async ({ toolName, input, toolUseId, signal }) => {
    const answers = await callHooks(hooks, 'PreToolUse', toolName, { tool_name: toolName, tool_input: input, tool_use_id: toolUseId }, context, toolUseId, signal);
    const result: PreToolHookResult = {};
    for (const answer of answers) {
      const own = specific(answer);
      const decision = own.permissionDecision ?? (answer.decision === 'block' ? 'deny' : answer.decision === 'approve' ? 'allow' : undefined);
      // A deny from any hook wins over an allow from another.
      if (decision === 'deny' || (decision !== undefined && result.decision !== 'deny')) {
        result.decision = decision as PreToolHookResult['decision'];
        const exact = decision === 'deny' ? text(answer[HOOK_DENIAL_TEXT]) : undefined;
        result.reason = exact ?? text(own.permissionDecisionReason) ?? text(answer.reason) ?? result.reason;
        if (exact !== undefined) result.reasonIsText = true;
        else delete result.reasonIsText;
      }
      if (own.updatedInput !== undefined) result.updatedInput = own.updatedInput;
      result.additionalContext = joined([result.additionalContext, text(own.additionalContext)]);
      if (answer.continue === false) {
        result.preventContinuation = true;
        result.stopReason = text(answer.stopReason) ?? result.stopReason;
      }
    }
    if (result.additionalContext === undefined) delete result.additionalContext;
    return result;
  };
}

/**
 * `toolResponse`: a tool's structured response, where turnloop has one (the Agent tool's, as claude 2.1.334 sends it:
 * session-tasks.ts); any other tool's `tool_response` is its result's content.
 */
export function sdkPostToolHook(hooks: HookRegistry, context: HookContext, toolResponse: (toolUseId: string) => JsonObject | undefined = () => undefined): PostToolHook {
  return async ({ toolName, input, toolUseId, result, signal, durationMs }) => {
    // A call that failed is PostToolUseFailure's, as in Claude Code: its input carries the error text instead of a
    // response, and (claude 2.1.334) how long the tool ran, as PostToolUse's does.
    const answers = result.isError === true
      ? await callHooks(hooks, 'PostToolUseFailure', toolName, { tool_name: toolName, tool_input: input, tool_use_id: toolUseId, error: result.content, is_interrupt: false, ...(durationMs !== undefined ? { duration_ms: durationMs } : {}) }, context, toolUseId, signal)
      : await callHooks(hooks, 'PostToolUse', toolName, { tool_name: toolName, tool_input: input, tool_response: toolResponse(toolUseId) ?? result.content, tool_use_id: toolUseId, ...(durationMs !== undefined ? { duration_ms: durationMs } : {}) }, context, toolUseId, signal);
    const additionalContext = joined(answers.map((a) => text(specific(a).additionalContext)));
    const blockingError = joined(answers.map((a) => (a.decision === 'block' ? text(a.reason) ?? 'blocked by a PostToolUse hook' : undefined)));
    const stop = answers.find((a) => a.continue === false);
    return {
      ...(additionalContext ? { additionalContext } : {}),
      ...(blockingError ? { blockingError } : {}),
      ...(stop ? { preventContinuation: true, ...(text(stop.stopReason) ? { stopReason: text(stop.stopReason) } : {}) } : {}),
    };
  };
}

function lastAssistantText(messages: Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'assistant') return m.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  }
  return undefined;
}

export function sdkStopHook(hooks: HookRegistry, context: HookContext): StopHook {
  return async ({ messages, stopHookActive, signal }) => {
    const last = lastAssistantText(messages);
    const answers = await callHooks(hooks, 'Stop', '', { stop_hook_active: stopHookActive, ...(last !== undefined ? { last_assistant_message: last } : {}) }, context, undefined, signal);
    const blockingError = joined(answers.map((a) => (a.decision === 'block' ? text(a.reason) ?? 'blocked by a Stop hook' : undefined)));
    const stop = answers.find((a) => a.continue === false);
    return {
      ...(blockingError ? { blockingError } : {}),
      ...(stop ? { preventContinuation: true, ...(text(stop.stopReason) ? { stopReason: text(stop.stopReason) } : {}) } : {}),
    };
  };
}

export interface PromptHookOutcome {
  /**
   * Set when a hook blocked the prompt (`decision: 'block'`: `blocked_by_hook`) or stopped the session's work
   * (`continue: false`: `stopped_by_hook`): the turn does not run.
   */
  blocked?: { kind: 'blocked_by_hook' | 'stopped_by_hook'; reason: string };
  additionalContext?: string;
}

export async function runPromptHooks(hooks: HookRegistry, context: HookContext, prompt: string): Promise<PromptHookOutcome> {
  const answers = await callHooks(hooks, 'UserPromptSubmit', '', { prompt }, context);
  const block = answers.find((a) => a.decision === 'block' || a.continue === false);
  const additionalContext = joined(answers.map((a) => text(specific(a).additionalContext)));
  const blocked = block && (block.decision === 'block'
    ? { kind: 'blocked_by_hook' as const, reason: text(block.reason) ?? text(block.stopReason) ?? 'no reason was given' }
    : { kind: 'stopped_by_hook' as const, reason: text(block.stopReason) ?? text(block.reason) ?? 'no reason was given' });
  return {
    ...(blocked ? { blocked } : {}),
    ...(additionalContext ? { additionalContext } : {}),
  };
}

/** A subagent as its SubagentStart and SubagentStop hooks see it. */
export interface SubagentOfHooks {
  /** The subagent's id (claude's form, agent-ids.ts): its task's id and its launch text's `agentId`. */
  agentId: string;
  agentType: string;
  /** The Agent call's id (the subagent's log is named by it). */
  toolUseId: string;
}

export interface SubagentHooks {
  /** The hooks' `additionalContext`, joined, for the subagent's first message. */
  started(agent: SubagentOfHooks, signal?: AbortSignal): Promise<{ additionalContext?: string }>;
  /** The subagent's Stop hook (undefined: no SubagentStop hook): a `decision: 'block'` keeps it going with the reason. */
  stopHook(agent: SubagentOfHooks): StopHook | undefined;
  /**
   * The program's tool hooks for the subagent's own calls: claude 2.1.334 runs PreToolUse, PostToolUse and
   * PostToolUseFailure for them too, their input naming the subagent (`agent_id`, `agent_type`).
   */
  toolHooks(agent: SubagentOfHooks): { pre: PreToolHook[]; post: PostToolHook[] };
}

/**
 * SubagentStart before a subagent's first request and SubagentStop once it has answered, matched on the agent type as
 * claude 2.1.334 matches them, and the tool hooks of the subagent's calls. SubagentStart's `additionalContext`
 * reaches the subagent; SubagentStop is the subagent's Stop hook, so its `decision: 'block'` keeps the subagent going
 * with the reason.
 */
export function sdkSubagentHooks(
  hooks: HookRegistry,
  context: HookContext,
  /** The subagent's log ('' when the session keeps none). */ transcriptPath: (agent: SubagentOfHooks) => string,
  /** The background subagents running when one stops (SubagentStop's `background_tasks`, session-tasks.ts). */ backgroundTasks: () => JsonObject[] = () => [],
): SubagentHooks {
  return {
    async started({ agentId, agentType }, signal) {
      const answers = await callHooks(hooks, 'SubagentStart', agentType, { agent_id: agentId, agent_type: agentType }, context, undefined, signal);
      const additionalContext = joined(answers.map((a) => text(specific(a).additionalContext)));
      return additionalContext ? { additionalContext } : {};
    },
    toolHooks(agent) {
      const ofAgent: HookContext = { ...context, base: () => ({ ...context.base(), agent_id: agent.agentId, agent_type: agent.agentType }) };
      return {
        pre: hooks.PreToolUse ? [sdkPreToolHook(hooks, ofAgent)] : [],
        post: hooks.PostToolUse || hooks.PostToolUseFailure ? [sdkPostToolHook(hooks, ofAgent)] : [],
      };
    },
    stopHook: (agent) => (!hooks.SubagentStop ? undefined : async ({ messages, stopHookActive, signal }) => {
      const last = lastAssistantText(messages);
      const answers = await callHooks(hooks, 'SubagentStop', agent.agentType, {
        stop_hook_active: stopHookActive,
        agent_id: agent.agentId,
        agent_transcript_path: transcriptPath(agent),
        agent_type: agent.agentType,
        ...(last !== undefined ? { last_assistant_message: last } : {}),
        background_tasks: backgroundTasks(),
        // As claude 2.1.334: turnloop schedules no crons.
        session_crons: [],
      }, context, undefined, signal);
      const blockingError = joined(answers.map((a) => (a.decision === 'block' ? text(a.reason) ?? 'blocked by a SubagentStop hook' : undefined)));
      return blockingError ? { blockingError } : {};
    }),
  };
}

/**
 * The key of a SessionStart command hook's answer holding its plain stdout (never sent: answers stay in process):
 * claude words it apart from a JSON answer's `additionalContext`.
 */
export const HOOK_SUCCESS_TEXT = 'turnloopHookSuccessText';

/** Why a session starts, as SessionStart's input (and its matchers) name it. */
export type SessionStartSource = 'startup' | 'resume';

/**
 * The settings' SessionStart hooks (probed on claude 2.1.334, test/agent-sdk/programs/conf-session-start.ts), matched
 * on `source`. Their input is the session's `session_id`, `transcript_path` and `cwd` with `source` (no
 * `permission_mode`, no `prompt_id`: no prompt came yet). Returns what reaches the model, one reminder per hook in
 * the hooks' order: a plain stdout as `SessionStart:<source> hook success: <text>`, a JSON answer's
 * `additionalContext` as `SessionStart hook additional context: <text>`. They run side by side, as claude runs them
 * (a command hook announces itself: command-hooks.ts). claude sends them at the head of a new session's first
 * prompt; on a resumed session it runs the hooks and sends nothing of theirs, so nor does this.
 */
export async function runSessionStartHooks(hooks: HookRegistry, context: HookContext, source: SessionStartSource): Promise<string[]> {
  const { permission_mode: _mode, prompt_id: _prompt, ...base } = context.base();
  // As claude, they run side by side; their answers are taken in the hooks' order.
  const matchers = (hooks.SessionStart ?? []).filter((m) => matcherMatches(m.matcher, source));
  const singles = matchers.flatMap((m) => m.hookCallbackIds.map((id): HookRegistry => ({ SessionStart: [{ hookCallbackIds: [id] }] })));
  const answers = (await Promise.all(singles.map((registry) => callHooks(registry, 'SessionStart', source, { source }, { ...context, base: () => base })))).flat();
  if (source !== 'startup') return [];
  return answers.flatMap((answer) => {
    const plain = text(answer[HOOK_SUCCESS_TEXT]);
    if (plain !== undefined) return [`<system-reminder>\nSessionStart:${source} hook success: ${plain}\n</system-reminder>`];
    const additional = text(specific(answer).additionalContext);
    return additional !== undefined ? [`<system-reminder>\nSessionStart hook additional context: ${additional}\n</system-reminder>`] : [];
  });
}
