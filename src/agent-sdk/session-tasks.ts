/**
 * The subagents of one SDK session as the real executable (Claude Code 2.1.334) reports them: each Task call is a
 * task with `system/task_started` (before the child's first message), `system/task_updated` (its status when it
 * ends) and `system/task_notification` (the report's summary); a background one also changes the set that
 * `system/background_tasks_changed` carries, before it starts and after it ends.
 *
 * A background child (`launch`) answers its call at once; when it ends, its `<task-notification>` is queued for
 * the session driver, which runs it as a turn of its own after the turn in progress (stream-json-driver.ts). The
 * driver does not finish while a background child runs, so the program always gets that turn's result. An
 * interrupt of the turn that launched it stops it (its signal is that turn's), and then no turn follows.
 */
import { randomUUID } from 'node:crypto';
import { backgroundLaunchText, outcomeOf, taskNotificationText, type BackgroundLauncher, type BackgroundLaunch, type BackgroundOutcome } from '../agents/background-agents.ts';
import type { ChildRunResult } from '../tools/child-runs.ts';
import type { AssistantMessage, QueryItem } from '../messages/types.ts';
import { messageOf } from '../errors/message-of.ts';
import type { JsonObject } from './json-lines.ts';
import { randomAgentIds, type AgentIdSource } from './agent-ids.ts';
import { isSubagentToolName } from './subagent-tool-names.ts';

/** What a Task call asked for, known before its child starts. */
export interface TaskCall {
  toolUseId: string;
  description: string;
  subagentType: string;
  prompt: string;
  /** The Agent call of the subagent that made this call (a nested subagent's). */
  parentToolUseId?: string;
}

/** A finished background child's notification: the next turn's prompt. */
export interface TaskNotice {
  toolUseId: string;
  runId: string;
  /** The user message's content (one text block, as the real executable sends it). */
  content: Array<{ type: 'text'; text: string }>;
}

interface Task extends TaskCall {
  /** The subagent's id (agent-ids.ts): the task's id in every message. */
  agentId: string;
  runId: string;
  background: boolean;
  startedAt: number;
  /** Tool calls its replies made so far (`task_progress`). */
  toolUses?: number;
  /** 1 for the main thread's subagents, 2 for theirs... */
  spawnDepth: number;
}

export interface SessionTasksDeps {
  write(message: JsonObject): void;
  sessionId: string;
  /** The child's transcript (its session log beside the session's), or undefined when nothing is persisted. */
  outputFile(toolUseId: string): string | undefined;
  now?: () => number;
  /** The subagents' ids (default: random, in claude's form). */
  newAgentId?: AgentIdSource;
}

/** What the Agent tool's PostToolUse hook gets as `tool_response`, as claude 2.1.334 sends it (fields turnloop has). */
export type AgentToolResponse = JsonObject;

/** The size and time a notification reports: the child's last context (input, cache and output tokens) and its tool calls. */
function usageOf(items: readonly QueryItem[], durationMs: number): NonNullable<BackgroundOutcome['usage']> {
  let totalTokens = 0;
  let toolUses = 0;
  for (const item of items) {
    if (item.type !== 'assistant') continue;
    const u = item.message.usage;
    if (u) totalTokens = u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    toolUses += item.message.content.filter((b) => b.type === 'tool_use').length;
  }
  return { totalTokens, toolUses, durationMs };
}

export class SessionTasks implements BackgroundLauncher {
  private readonly calls = new Map<string, TaskCall>();
  private readonly agentIds = new Map<string, string>();
  private readonly responses = new Map<string, AgentToolResponse>();
  private readonly backgroundCalls = new Set<string>();
  private readonly tasks = new Map<string, Task>();
  private readonly live = new Set<string>();
  private readonly notices: TaskNotice[] = [];
  private listeners: Array<() => void> = [];
  private readonly now: () => number;
  private readonly newAgentId: AgentIdSource;

  constructor(private readonly deps: SessionTasksDeps) {
    this.now = deps.now ?? Date.now;
    this.newAgentId = deps.newAgentId ?? randomAgentIds;
  }

  /** The subagent id of a described call (its tool_use id for a call never described). */
  agentIdOf(toolUseId: string): string {
    return this.agentIds.get(toolUseId) ?? toolUseId;
  }

  /**
   * The background subagents still running, as claude 2.1.334 lists them in SubagentStop's `background_tasks`
   * (a background subagent's own stop lists itself: it has not ended yet).
   */
  backgroundTasks(): JsonObject[] {
    return [...this.live].flatMap((id) => {
      const task = this.tasks.get(id);
      return task ? [{ id: task.agentId, type: 'subagent', status: 'running', description: task.description, agent_type: task.subagentType }] : [];
    });
  }

  /** What claude 2.1.334 adds to each message of a described call's subagent: its id, type and the call's description. */
  messageFields(toolUseId: string): JsonObject | undefined {
    const call = this.calls.get(toolUseId);
    return call ? { agent_id: this.agentIdOf(toolUseId), subagent_type: call.subagentType, task_description: call.description } : undefined;
  }

  /** The Agent call's `tool_response` for PostToolUse hooks, once its child launched (background) or ended (foreground). */
  toolResponse(toolUseId: string): AgentToolResponse | undefined {
    return this.responses.get(toolUseId);
  }

  /** Background children that have not ended yet. */
  get running(): number {
    return this.live.size;
  }

  /** The next queued notification, oldest first. */
  takeNotice(): TaskNotice | undefined {
    return this.notices.shift();
  }

  /** Calls `listener` whenever a notification is queued; the function returned stops that. */
  onNotice(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Whether the child of this call runs in the background (its messages are shown as the real executable shows them). */
  isBackground(toolUseId: string | undefined): boolean {
    return toolUseId !== undefined && this.backgroundCalls.has(toolUseId);
  }

  /**
   * Remembers a Task call's input before its child starts (the background launch carries only the description),
   * and whether it runs in the background (its child's first step comes before its launch).
   */
  describe(call: TaskCall, options: { background: boolean }): void {
    this.calls.set(call.toolUseId, call);
    if (!this.agentIds.has(call.toolUseId)) this.agentIds.set(call.toolUseId, this.newAgentId());
    if (options.background) this.backgroundCalls.add(call.toolUseId);
  }

  /** A foreground child starts: `task_started`. */
  started(call: TaskCall): void {
    this.begin(call, false);
  }

  /**
   * A foreground child's reply that calls tools: claude 2.1.334's `task_progress` before it (the last call's
   * description, or its tool's name, as what runs; the task's tokens, calls and time so far).
   */
  progress(toolUseId: string, reply: AssistantMessage): void {
    const task = this.tasks.get(toolUseId);
    const calls = reply.message.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    const last = calls.at(-1);
    if (!task || !last) return;
    task.toolUses = (task.toolUses ?? 0) + calls.length;
    const u = reply.message.usage;
    const totalTokens = u ? u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) : 0;
    const said = (last.input as { description?: unknown } | undefined)?.description;
    const what = typeof said === 'string' && said !== '' ? said : last.name;
    this.write({
      type: 'system', subtype: 'task_progress', task_id: task.agentId, run_id: task.runId, tool_use_id: toolUseId,
      // claude 2.1.334: `Running <description>` for a Bash call, an Agent call's description as it stands.
      description: isSubagentToolName(last.name) ? what : `Running ${what}`, subagent_type: task.subagentType,
      usage: { total_tokens: totalTokens, tool_uses: task.toolUses, duration_ms: this.now() - task.startedAt }, last_tool_name: last.name,
    });
  }

  /** A foreground child ended (or its run failed): `task_updated`, `task_notification`. */
  ended(toolUseId: string, result: ChildRunResult | { error: unknown }): void {
    const task = this.tasks.get(toolUseId);
    if (!task) return;
    const outcome = this.outcome(task, result);
    if (outcome.status === 'completed' && 'items' in result) this.responses.set(toolUseId, completedResponse(task, outcome, result));
    this.finish(task, outcome);
  }

  /** A background child started: it answers its call at once; its end queues a notification. */
  launch(launch: BackgroundLaunch): string {
    const call = this.calls.get(launch.toolUseId) ?? { toolUseId: launch.toolUseId, description: launch.description, subagentType: 'general-purpose', prompt: '' };
    this.live.add(call.toolUseId);
    const task = this.begin(call, true);
    launch.result.then(
      (result) => (result.terminal.reason.startsWith('aborted') ? this.kill(task) : this.settle(task, this.outcome(task, result))),
      (error: unknown) => this.settle(task, this.outcome(task, { error })),
    );
    const outputFile = this.deps.outputFile(call.toolUseId);
    this.responses.set(call.toolUseId, { isAsync: true, status: 'async_launched', agentId: task.agentId, description: task.description, prompt: task.prompt, outputFile: outputFile ?? '' });
    return backgroundLaunchText(task.agentId, outputFile);
  }

  private outcome(task: Task, result: ChildRunResult | { error: unknown }): BackgroundOutcome {
    if ('error' in result) return { status: 'failed', text: messageOf(result.error) };
    return { ...outcomeOf(result), usage: usageOf(result.items, this.now() - task.startedAt) };
  }

  private begin(call: TaskCall, background: boolean): Task {
    const parent = call.parentToolUseId === undefined ? undefined : this.tasks.get(call.parentToolUseId);
    const task: Task = { ...call, agentId: this.agentIdOf(call.toolUseId), runId: randomUUID(), background, startedAt: this.now(), spawnDepth: (parent?.spawnDepth ?? 0) + 1 };
    this.tasks.set(call.toolUseId, task);
    if (background) this.writeBackgroundSet();
    this.write({
      type: 'system',
      subtype: 'task_started',
      task_id: task.agentId,
      run_id: task.runId,
      tool_use_id: task.toolUseId,
      description: task.description,
      subagent_type: task.subagentType,
      is_backgrounded: background,
      spawn_depth: task.spawnDepth,
      ...(parent ? { parent_task_id: parent.agentId } : {}),
      task_type: 'local_agent',
      prompt: task.prompt,
    });
    return task;
  }

  private finish(task: Task, outcome: BackgroundOutcome): void {
    const outputFile = this.deps.outputFile(task.toolUseId);
    this.write({ type: 'system', subtype: 'task_updated', task_id: task.agentId, run_id: task.runId, patch: { status: outcome.status, end_time: this.now(), ...(outcome.status === 'failed' ? { error: outcome.text } : {}) } });
    this.write({
      type: 'system',
      subtype: 'task_notification',
      task_id: task.agentId,
      run_id: task.runId,
      tool_use_id: task.toolUseId,
      status: outcome.status,
      output_file: outputFile ?? '',
      summary: outcome.text,
      ...(task.background ? { summary_is_report: true } : {}),
      ...(outcome.usage ? { usage: { total_tokens: outcome.usage.totalTokens, tool_uses: outcome.usage.toolUses, duration_ms: outcome.usage.durationMs } } : {}),
    });
  }

  private settle(task: Task, outcome: BackgroundOutcome): void {
    this.finish(task, outcome);
    this.live.delete(task.toolUseId);
    this.writeBackgroundSet();
    const text = taskNotificationText(task.toolUseId, task.description, outcome, this.deps.outputFile(task.toolUseId), task.agentId);
    this.notices.push({ toolUseId: task.toolUseId, runId: task.runId, content: [{ type: 'text', text }] });
    for (const listener of this.listeners) listener();
  }

  /**
   * A background child stopped by an interrupt of the turn that launched it: as the real executable, `killed`, a
   * `stopped` notification naming the task, and no turn for it (the model is not told).
   */
  private kill(task: Task): void {
    this.write({ type: 'system', subtype: 'task_updated', task_id: task.agentId, run_id: task.runId, patch: { status: 'killed', end_time: this.now() } });
    this.write({ type: 'system', subtype: 'task_notification', task_id: task.agentId, run_id: task.runId, tool_use_id: task.toolUseId, status: 'stopped', output_file: this.deps.outputFile(task.toolUseId) ?? '', summary: task.description });
    this.live.delete(task.toolUseId);
    this.writeBackgroundSet();
    for (const listener of this.listeners) listener();
  }

  private writeBackgroundSet(): void {
    const tasks = [...this.live].map((id) => this.tasks.get(id) ?? { agentId: this.agentIdOf(id), runId: '', subagentType: 'general-purpose', description: '' });
    this.write({
      type: 'system',
      subtype: 'background_tasks_changed',
      tasks: tasks.map((t) => ({ task_id: t.agentId, run_id: t.runId, task_type: 'local_agent', subagent_type: t.subagentType, description: t.description })),
    });
  }

  private write(message: JsonObject): void {
    this.deps.write({ ...message, uuid: randomUUID(), session_id: this.deps.sessionId });
  }
}

/** A finished foreground child's `tool_response`: its report as content blocks, with its totals and last usage. */
function completedResponse(task: Task, outcome: BackgroundOutcome, result: ChildRunResult): AgentToolResponse {
  let model: string | undefined;
  let usage: JsonObject | undefined;
  for (const item of result.items) {
    if (item.type !== 'assistant' || item.apiError) continue;
    model = item.message.model;
    if (item.message.usage) usage = { ...item.message.usage } as JsonObject;
  }
  return {
    status: 'completed',
    prompt: task.prompt,
    agentId: task.agentId,
    agentType: task.subagentType,
    content: [{ type: 'text', text: outcome.text }],
    ...(model ? { resolvedModel: model } : {}),
    totalDurationMs: outcome.usage?.durationMs ?? 0,
    totalTokens: outcome.usage?.totalTokens ?? 0,
    totalToolUseCount: outcome.usage?.toolUses ?? 0,
    ...(usage ? { usage } : {}),
  };
}
