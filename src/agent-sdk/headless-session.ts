/**
 * One SDK session: a conversation whose turns each run our `query()` from the whole history so far, and whose
 * output is the Agent SDK's messages. A turn writes `system`/`init`, then the mapped messages of the main thread
 * and of its subagents (with `parent_tool_use_id`), then exactly one `result` (docs/agent-sdk.md). The program's
 * permissions, hooks and model choice apply through the options given here; they may change between turns
 * (`set_permission_mode`, `set_model`). Every turn is recorded to the session's log unless persistence is off.
 */
import { randomUUID } from 'node:crypto';
import { query } from '../api/query.ts';
import { modelInfo, resolveConfig } from '../config/config.ts';
import { effortForModel } from '../config/model-effort.ts';
import type { PreToolHook } from '../tools/call-deps.ts';
import type { AssistantMessage, Message, UserContentBlock } from '../messages/types.ts';
import { endsBudgetCheckInterval } from './turn-budget.ts';
import type { Terminal } from '../data/outcomes.ts';
import { recordChildrenBeside } from '../replay/child-log-files.ts';
import type { JsonObject } from './json-lines.ts';
import { createSdkCanUseTool, type PermissionMode } from './permission-modes.ts';
import { SessionPermissions } from './permission-updates.ts';
import { settingsProblemsMessage } from './settings-permissions.ts';
import { resumedShellReminder } from './resumed-shell.ts';
import { withRequestThinking } from './request-options.ts';
import { SETTING_SOURCES } from './setting-sources.ts';
import { resultMessage, type PermissionDenial } from './result-message.ts';
import { toSdkMessage, type MessageFrame } from './sdk-messages.ts';
import { apiRetryMessage, permissionDeniedMessage, ThinkingEstimate } from './progress-messages.ts';
import type { ModelRetryNotice } from '../model/anthropic-model-caller.ts';
import { conversationOf, startTurnLog } from './session-store.ts';
import { TurnUsage } from './turn-usage.ts';
import { SKILL_CONTEXT_NAME } from './skills.ts';
import { STRUCTURED_OUTPUT_REMINDER } from './structured-output.ts';
import { packageVersion } from './version.ts';
import { messageOf } from '../errors/message-of.ts';
import { isInterruptionNote, subagentMessages } from './subagent-messages.ts';
import { PartialReply } from './partial-reply.ts';
import { withStringInputsCoerced } from './string-inputs.ts';
import { userContentProblem } from './user-content.ts';
import { HeadlessArgsError } from './headless-args.ts';
import type { SessionDeps, SessionSettings, TurnOutcome } from './session-settings.ts';
import { initToolName } from './sdk-tools.ts';

/** The stop reason a `message_delta` stream event carries, if it is one. */
function stopReasonOf(event: unknown): string | undefined {
  const delta = event as { type?: unknown; delta?: { stop_reason?: unknown } } | null;
  return delta?.type === 'message_delta' && typeof delta.delta?.stop_reason === 'string' ? delta.delta.stop_reason : undefined;
}

export { userContentOf } from './user-content.ts';

export class HeadlessSession {
  history: Message[];
  permissionMode: PermissionMode;
  model: string | undefined;
  /** The rules and mode the program's "always allow" answers added (`updatedPermissions`), kept across turns. */
  readonly permissions: SessionPermissions;
  private settingsReported = false;
  /** A resumed session's first prompt says where its shell was (resumed-shell.ts); once. */
  private resumeTold = false;
  /** The running turn: its abort, and the background subagents it launched (an interrupt stops them too, as claude). */
  private current: { controller: AbortController; interrupted: boolean; background: Array<() => void> } | null = null;

  constructor(
    readonly settings: SessionSettings,
    private readonly deps: SessionDeps,
    history: Message[] = [],
  ) {
    this.history = history;
    this.permissionMode = settings.permissionMode;
    this.model = settings.model;
    this.permissions = new SessionPermissions({ cwd: settings.cwd, setMode: (mode) => this.setModeFromProgram(mode), settingSources: settings.settingSources ?? SETTING_SOURCES, askRules: settings.askRules ?? [] });
  }

  /** A `setMode` the program's `updatedPermissions` applied: announced as claude announces it, a `system/status` with the mode. */
  private setModeFromProgram(mode: PermissionMode): void {
    this.permissionMode = mode;
    this.deps.write({ type: 'system', subtype: 'status', status: null, permissionMode: mode, uuid: randomUUID(), session_id: this.settings.sessionId });
  }

  /**
   * The current user prompt's id: hook inputs carry it as `prompt_id` from the prompt's UserPromptSubmit on, until
   * the next prompt (claude 2.1.334: a new id per user message, not the message's uuid; none before the first).
   */
  promptId: string | undefined;

  /** A user prompt arrives: a new `promptId`. */
  startPrompt(): void {
    this.promptId = randomUUID();
  }

  /** Hook inputs' `effort`, as claude 2.1.334 sends it: the level asked (its default `high`) as the session's model takes it. */
  hookEffort(): JsonObject | undefined {
    const level = effortForModel(this.settings.effort ?? 'high', this.model ?? resolveConfig({}).model);
    return level ? { level } : undefined;
  }

  /** Aborts the running turn (an `interrupt` control request); false when no turn runs. */
  interrupt(): boolean {
    if (!this.current) return false;
    this.current.interrupted = true;
    this.current.controller.abort('user');
    for (const stop of this.current.background.splice(0)) stop();
    return true;
  }

  private frame(parentToolUseId: string | null): MessageFrame {
    return { sessionId: this.settings.sessionId, parentToolUseId, newUuid: randomUUID };
  }

  private progressFrame() {
    return { sessionId: this.settings.sessionId, uuid: randomUUID() };
  }

  /** A retried request (the model caller's `onRetry`): `system/api_retry`, as claude reports each wait. */
  reportRetry(notice: ModelRetryNotice): void {
    this.deps.write(apiRetryMessage(notice, this.progressFrame()));
  }

  initMessage(): JsonObject {
    const { settings } = this;
    return {
      type: 'system',
      subtype: 'init',
      apiKeySource: settings.apiKeySource,
      claude_code_version: `turnloop-${packageVersion()}`,
      cwd: settings.cwd,
      tools: [...this.deps.tools().map((t) => initToolName(t.name)), ...settings.unknownTools.map((name) => `${name} (not available in turnloop)`)],
      mcp_servers: settings.mcpServers(),
      model: this.model ?? resolveConfig({}).model,
      permissionMode: this.permissionMode,
      slash_commands: [...settings.skills],
      output_style: 'default',
      agents: [...settings.agents()],
      skills: [...settings.skills],
      plugins: [],
      terminal_slash_commands: [],
      // turnloop sends no analytics and has no feedback channel, sandbox or fast mode.
      analytics_disabled: true,
      product_feedback_disabled: true,
      sandbox_enabled: false,
      fast_mode_state: 'off',
      original_cwd: settings.cwd,
      additional_directories: [...settings.additionalDirectories],
      uuid: randomUUID(),
      session_id: settings.sessionId,
    };
  }

  /**
   * Runs one turn for `content` (after the program's UserPromptSubmit hooks, whose context comes as `extra`).
   * `origin`: what started a turn that no user message did (a background task's notification), put on its result.
   */
  async runTurn(content: string | UserContentBlock[], options: { uuid?: string; extraContext?: string; origin?: JsonObject } = {}): Promise<TurnOutcome> {
    const { settings, deps } = this;
    const startedAt = Date.now();
    const controller = new AbortController();
    const turn = { controller, interrupted: false, background: [] as Array<() => void> };
    this.current = turn;
    // query() is given the overrides, not the resolved config: it checks what it is given, and a whole config is
    // ten times the keys to check on every turn.
    const overrides = {
      sessionId: settings.sessionId,
      ...(this.model ? { model: this.model } : {}),
      ...(settings.quickRetries ? { retry: { baseDelayMs: 5, maxDelayMs: 50 } } : {}),
      // As the real executable: its streaming tool executor is behind a gate it runs without, so tools run after
      // the reply (runTools) and a failed Bash cancels no sibling (issue 39; test/agent-sdk/request-sequence.test.ts).
      features: { streamingToolExecution: false },
    };
    const config = resolveConfig(overrides);
    const thinking = settings.thinking?.(config.model, modelInfo(config, config.model).maxOutputTokens);
    const usage = new TurnUsage((model) => {
      const info = modelInfo(config, model);
      return { contextWindow: info.contextWindow, maxOutputTokens: info.maxOutputTokens };
    });
    const denials: PermissionDenial[] = [];
    const stopsAfterCall = new Map<string, string | undefined>();
    // As the real executable counts turns: 1 for the prompt, 1 for each main-thread user message after it (each
    // tool_result is its own message, and so is an interruption note).
    let numTurns = 1;
    let apiMs = 0;
    let requestAt: number | null = null;
    let lastAssistant: AssistantMessage | undefined;
    let budgetExceeded: { maxBudgetUsd: number } | undefined;
    let finalMessages: Message[] | null = null;
    // The interruption note the loop writes is part of the conversation the next turn sends, as in the original
    // (its history holds every message the loop yields); the run's state does not carry it (issue 39 item 3).
    const interruptionNotes: Message[] = [];
    // The last request's stop reason as the API streamed it: an empty reply has one but no assistant message.
    let streamedStopReason: string | undefined;
    const countAssistant = (message: AssistantMessage) => usage.add(message);
    // As claude checks `maxBudgetUsd`: in its SDK layer, after each message the loop yields, once a reply is complete
    // (its cost is counted at the reply's end). Past the budget it stops pulling from the loop: the reply is kept,
    // its tools never run, no further request is made. The loop itself has no such check (docs/agent-sdk.md).
    const thinkingEstimate = new ThinkingEstimate();
    const partialReply = new PartialReply();
    const budgetSpent = () => settings.maxBudgetUsd !== undefined && usage.costUsd >= settings.maxBudgetUsd;
    // What the program is shown of each subagent (subagent-messages.ts); a background one launched by this turn is
    // stopped by an interrupt of this turn only.
    const forwardChild = subagentMessages({
      isBackground: (toolUseId) => deps.tasks?.isBackground(toolUseId) === true,
      forwardText: () => settings.forwardSubagentText?.() === true,
      frame: (parent) => this.frame(parent),
      write: (message) => deps.write(message),
      countAssistant,
      onBackground: (abort) => turn.background.push(abort),
      fields: (toolUseId) => deps.tasks?.messageFields(toolUseId),
      progress: (toolUseId, reply) => deps.tasks?.progress(toolUseId, reply),
    });
    const recordChildren = settings.logPath ? recordChildrenBeside(settings.logPath) : undefined;
    const messages: Message[] = [...this.history];
    // The SessionStart hooks have ended before any turn runs (a resumed session's too); a new session's opens with theirs.
    const startReminders = deps.sessionStartReminders ? await deps.sessionStartReminders() : [];
    if (this.history.length === 0) for (const reminder of startReminders) messages.push({ type: 'user', uuid: randomUUID(), isMeta: true, message: { role: 'user', content: reminder } });
    if (this.history.length === 0 && settings.startContext) messages.push({ type: 'user', uuid: randomUUID(), isMeta: true, message: { role: 'user', content: settings.startContext } });
    const shellWas = this.history.length > 0 && !this.resumeTold ? resumedShellReminder(this.history, settings.cwd) : undefined;
    this.resumeTold = true;
    if (shellWas) messages.push({ type: 'user', uuid: randomUUID(), isMeta: true, message: { role: 'user', content: shellWas } });
    messages.push({ type: 'user', uuid: options.uuid ?? randomUUID(), message: { role: 'user', content } });
    if (options.extraContext) messages.push({ type: 'user', uuid: randomUUID(), isMeta: true, message: { role: 'user', content: options.extraContext } });
    const hooks = deps.hooks();
    deps.structuredOutput?.beginTurn();
    deps.write(this.initMessage());
    if (!this.settingsReported) {
      this.settingsReported = true;
      const warning = settingsProblemsMessage(settings.settingsProblems ?? [], settings.sessionId);
      if (warning) deps.write(warning);
    }
    let terminal: Terminal;
    let crashed: string | undefined;
    try {
      const problem = userContentProblem(content);
      if (problem !== undefined) throw new HeadlessArgsError(problem);
      // The new run's params carry the whole conversation: its log replaces the previous turn's (session-store.ts).
      // Inside the try: a log another process holds fails this turn with a result, as any crash does; thrown, it
      // ended the session without one while the program waited.
      if (settings.logPath) startTurnLog(settings.cwd, settings.logPath);
      const generator = query({
        messages,
        systemPrompt: settings.systemPrompt,
        tools: () => deps.tools(),
        canUseTool: createSdkCanUseTool({
          mode: () => this.permissionMode,
          allowedTools: settings.allowedTools,
          disallowedTools: settings.disallowedTools,
          ...(deps.ask ? { ask: deps.ask } : {}),
          session: this.permissions,
          onDenial: (denial) => denials.push(denial),
          // Written at once: the call's error tool_result follows it.
          onUnaskedDenial: (denial) => deps.write(permissionDeniedMessage(denial, this.progressFrame())),
          cwd: settings.cwd,
        }),
        preToolHooks: [
          ...hooks.preToolHooks.map((hook): PreToolHook => async (input) => {
            const result = await hook(input);
            if (result && result.decision === 'deny') denials.push({ tool_name: input.toolName, tool_use_id: input.toolUseId, tool_input: (input.input ?? {}) as Record<string, unknown> });
            if (!result?.preventContinuation) return result;
            // As the real executable: a PreToolUse stop takes effect once the call has run; a denied call ignores it.
            stopsAfterCall.set(input.toolUseId, result.stopReason);
            const { preventContinuation: _stop, stopReason: _reason, ...rest } = result;
            return rest;
          }),
        ],
        postToolHooks: [
          ...hooks.postToolHooks,
          ({ toolUseId }) => (stopsAfterCall.has(toolUseId) ? { preventContinuation: true, ...(stopsAfterCall.get(toolUseId) ? { stopReason: stopsAfterCall.get(toolUseId) } : {}) } : undefined),
        ],
        stopHooks: [
          ...hooks.stopHooks,
          // As the real executable: an answer without the StructuredOutput call is sent back to call it.
          ...(deps.structuredOutput ? [async () => (deps.structuredOutput?.outcome() ? {} : { blockingError: STRUCTURED_OUTPUT_REMINDER })] : []),
        ],
        ...(settings.maxTurns !== undefined ? { maxTurns: settings.maxTurns } : {}),
        ...(settings.fallbackModel ? { fallbackModel: settings.fallbackModel } : {}),
        ...(thinking ? { thinking } : {}),
        ...(settings.effort ? { effort: settings.effort } : {}),
        ...(settings.taskBudget !== undefined ? { taskBudget: { total: settings.taskBudget } } : {}),
        querySource: 'sdk',
        signal: controller.signal,
        config: overrides,
        // As claude: number and boolean inputs sent as strings are rewritten before the loop sees them (string-inputs.ts).
        deps: { callModel: withStringInputsCoerced(settings.thinking ? withRequestThinking(deps.callModel, settings.thinking) : deps.callModel) },
        onStep: (step) => {
          finalMessages = conversationOf(step.state);
        },
        childObservers: (link) => [...(recordChildren ? recordChildren(link) : []), forwardChild(link)],
        ...(settings.logPath ? { record: { target: settings.logPath, onError: (error: Error) => deps.warn(`session log ${settings.logPath} stopped: ${error.message}`) } } : {}),
      });
      // A called skill's body (an attachment emitted just before the Skill call's result) follows that result as a
      // user message of its own, as the real executable shows it.
      const skillBodies: string[] = [];
      let next = await generator.next();
      while (!next.done) {
        const item = next.value;
        if (item.type === 'attachment' && item.attachment.type === 'context' && item.attachment.name === SKILL_CONTEXT_NAME) skillBodies.push(item.attachment.content);
        if (item.type === 'request_start') {
          thinkingEstimate.reset();
          partialReply.reset();
          streamedStopReason = undefined;
          requestAt = Date.now();
          // As the real executable, with partial messages: a status line before each request's events.
          if (settings.partialMessages) deps.write({ type: 'system', subtype: 'status', status: 'requesting', uuid: randomUUID(), session_id: settings.sessionId });
        } else if (item.type === 'assistant') {
          lastAssistant = item;
          partialReply.reset();
          if (requestAt !== null) apiMs += Date.now() - requestAt;
          requestAt = null;
          countAssistant(item);
        } else if (item.type === 'stream_event') {
          streamedStopReason = stopReasonOf(item.event) ?? streamedStopReason;
          partialReply.add(item.event);
          const thinkingTokens = thinkingEstimate.add(item.event, this.progressFrame());
          if (thinkingTokens) deps.write(thinkingTokens);
        } else if (item.type === 'user' && isInterruptionNote(item.message.content)) {
          // As claude: the text streamed before an interrupt is kept, before the note (partial-reply.ts).
          const partial = partialReply.message(randomUUID());
          partialReply.reset();
          if (partial) {
            countAssistant(partial);
            interruptionNotes.push(partial);
            deps.write({ ...toSdkMessage(partial, this.frame(null), { partialMessages: false }), aborted: true });
          }
          interruptionNotes.push(item);
        }
        const mapped = toSdkMessage(item, this.frame(null), { partialMessages: settings.partialMessages });
        if (mapped) deps.write(mapped);
        if (mapped?.type === 'user') numTurns += 1;
        if (mapped?.type === 'user' && skillBodies.length > 0) {
          for (const text of skillBodies.splice(0)) {
            deps.write({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: null, isSynthetic: true, uuid: randomUUID(), session_id: settings.sessionId });
            numTurns += 1;
          }
        }
        if (settings.maxBudgetUsd !== undefined && endsBudgetCheckInterval(item) && budgetSpent()) {
          budgetExceeded = { maxBudgetUsd: settings.maxBudgetUsd };
          break;
        }
        next = await generator.next();
      }
      if (next.done) {
        terminal = next.value;
      } else {
        // Stopped for the budget. Closing the generator runs the loop's cleanup (the recording) and takes no step.
        await generator.return(undefined as never);
        const maxCostUsd = settings.maxBudgetUsd ?? 0;
        terminal = { reason: 'max_budget_usd', costUsd: usage.costUsd, maxCostUsd, message: `Reached maximum budget ($${maxCostUsd})` };
      }
    } catch (error) {
      crashed = messageOf(error);
      terminal = { reason: 'model_error', error: { message: crashed } };
    }
    const interrupted = this.current.interrupted;
    this.current = null;
    const structuredOutput = deps.structuredOutput?.outcome();
    // Assigned in the step observer: the checker cannot see that, so it is widened back once here.
    const conversation = finalMessages as Message[] | null;
    if (conversation) {
      // The StructuredOutput call ends the turn the way a hook stop does; its stop note is not part of the conversation.
      const kept = structuredOutput ? withoutStopNotes(conversation) : conversation;
      const known = new Set(kept.map((m) => m.uuid));
      this.history = [...kept, ...interruptionNotes.filter((m) => !known.has(m.uuid))];
    }
    const result = resultMessage({
      terminal,
      numTurns,
      ...(crashed !== undefined ? { crashed } : {}),
      ...(structuredOutput ? { structuredOutput } : {}),
      ...(settings.maxTurns !== undefined ? { maxTurns: settings.maxTurns } : {}),
      ...(budgetExceeded ? { budgetExceeded } : {}),
      interrupted,
      ...(lastAssistant ? { lastAssistant } : {}),
      ...(streamedStopReason ? { stopReason: streamedStopReason } : {}),
      usage: usage.usage,
      modelUsage: usage.modelUsage,
      totalCostUsd: usage.costUsd,
      durationMs: Date.now() - startedAt,
      durationApiMs: apiMs,
      permissionDenials: denials,
      sessionId: settings.sessionId,
      uuid: randomUUID(),
    });
    if (options.origin) result.origin = options.origin;
    return { result, isError: result.is_error === true };
  }
}

function withoutStopNotes(messages: Message[]): Message[] {
  return messages.filter((m) => !(m.type === 'attachment' && m.attachment.type === 'hook_stopped_continuation'));
}
