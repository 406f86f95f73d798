/**
 * The built-in tools an SDK program expects, under Claude Code's names and input shapes: Read, Write, Edit, Glob,
 * Grep and Bash working in the session's directory, and Task (a subagent with the others, or one of the program's
 * agents by `subagent_type`). `--tools` selects among
 * them (`default` or absent: all); a name in `--disallowedTools` without a pattern removes that tool, as Claude
 * Code removes it. A name we do not have is returned in `unknown` (reported in `init` and on stderr).
 */
import { defineAgentTool } from '../agents/define-agent-tool.ts';
import { resolveModelAlias } from '../config/config.ts';
import { defineTool, type Tool, type ToolCallResult, type ToolContext } from '../tools/define-tool.ts';
import type { SessionTasks } from './session-tasks.ts';
import type { SubagentHooks, SubagentOfHooks } from './sdk-hooks.ts';
import { createBashTool, type BashTool } from '../tools/builtin/bash.ts';
import { createEditTool, createGlobTool, createGrepTool, createReadTool } from '../tools/builtin/index.ts';
import { createWriteTool } from '../tools/builtin/write.ts';
import { isInside } from '../tools/builtin/confine-path.ts';
import { isSubagentToolName, LEGACY_SUBAGENT_TOOL_NAME, SUBAGENT_TOOL_NAME } from './subagent-tool-names.ts';
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { emptyResultText, isEmptyContent } from '../tools/tool-result-message.ts';
import { environmentUpdateReminder } from './resumed-shell.ts';

export const BUILTIN_TOOL_NAMES = ['Task', 'Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write'] as const;

/**
 * The deepest a subagent runs: one of this depth is not offered the subagent tool (claude 2.1.334, probed:
 * test/agent-sdk/conf-nested-depth.test.ts). Without it a model that keeps delegating nests runs until the tree's
 * model-call budget is spent.
 */
export const MAX_SUBAGENT_SPAWN_DEPTH = 3;

/** The name `init` lists a tool under (claude 2.1.334 lists the subagent tool as `Task`). */
export function initToolName(name: string): string {
  return name === SUBAGENT_TOOL_NAME ? LEGACY_SUBAGENT_TOOL_NAME : name;
}

export interface SdkToolSelection {
  tools: Tool[];
  /** Names the program asked for that turnloop does not have. */
  unknown: string[];
  /** Where the main thread's shell is: hook inputs' `cwd`, as claude's. */
  shellDirectory(): string;
}

function taskSystemPrompt(root: string): string {
  return [
    'You are a subagent of a coding agent. You get one task; do it with the tools below and nothing else.',
    `The working directory is ${root}. When you are done, answer with what you found or changed, concretely:`,
    'your answer is all the agent that started you will see.',
  ].join('\n');
}

/** An agent the program defines (the SDK's `agents` option, sent in `initialize`). */
export interface SdkAgentDefinition {
  description?: string;
  prompt?: string;
  tools?: string[];
  model?: string;
}

/**
 * Task as Claude Code has it: `subagent_type` picks one of the program's agents (its prompt, tools and model), or
 * the general-purpose agent when absent or `general-purpose`; an unknown type is an error result naming the known.
 * With `tasks`, each call is a task of the session (session-tasks.ts): it runs in the background unless its input
 * says `run_in_background: false` (then it is reported as a foreground task).
 */
function createTaskTool(root: string, childTools: Tool[], agents: () => Readonly<Record<string, SdkAgentDefinition>>, tasks: SessionTasks | undefined, subagentHooks: () => SubagentHooks | undefined, /** The Agent call whose subagent this one serves (nested). */ parentToolUseId?: string, /** The spawn depth of the subagents this tool starts (1: the main thread's). */ spawnDepth = 1): Tool {
  const inBackground = tasks ? { background: tasks } : {};
  const general = defineAgentTool({ name: 'Task', description: 'general-purpose', systemPrompt: taskSystemPrompt(root), tools: childTools, ...inBackground });
  const schema = general.inputSchema;
  return defineTool({
    // As claude 2.1.334 offers it: `Agent` in the request and in hook inputs; a call named `Task` still runs it.
    name: SUBAGENT_TOOL_NAME,
    aliases: [LEGACY_SUBAGENT_TOOL_NAME],
    description: tasks
      ? 'Starts a subagent to do one self-contained task. It runs in the background unless run_in_background is false: the call returns at once and its report arrives later as a notification; with run_in_background false the call returns its final answer. subagent_type picks one of the agents: general-purpose, or one the program defines. Several Task calls in one reply run at the same time.'
      : 'Starts a subagent to do one self-contained task and returns its final answer. subagent_type picks one of the agents: general-purpose, or one the program defines. Several Task calls in one reply run at the same time.',
    inputSchema: schema,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    call: (input, outerCtx): Promise<ToolCallResult> | ToolCallResult => {
      const type = input.subagent_type ?? 'general-purpose';
      let agent = general;
      if (type !== 'general-purpose') {
        const definition = agents()[type];
        if (!definition) {
          return { content: `Agent type '${type}' not found. Available agents: ${['general-purpose', ...Object.keys(agents())].join(', ')}`, isError: true };
        }
        const tools = definition.tools ? childTools.filter((tool) => definition.tools!.includes(tool.name)) : childTools;
        const model = definition.model && definition.model !== 'inherit' ? resolveModelAlias(definition.model) : undefined;
        agent = defineAgentTool({ name: type, description: definition.description ?? type, systemPrompt: definition.prompt ?? taskSystemPrompt(root), tools, ...(model ? { model } : {}), ...inBackground });
      }
      // As the real executable (2.1.334): in the background unless the input says `run_in_background: false`.
      const background = input.run_in_background !== false;
      const call = { toolUseId: outerCtx.toolUseId, description: input.description ?? type, subagentType: type, prompt: input.prompt, ...(parentToolUseId ? { parentToolUseId } : {}) };
      // Described first: the subagent's id (claude's form, agent-ids.ts) is given here, and its hooks carry it.
      if (tasks && outerCtx.runChild) tasks.describe(call, { background });
      const hooked = withSubagentHooks(outerCtx, { agentId: tasks?.agentIdOf(outerCtx.toolUseId) ?? outerCtx.toolUseId, agentType: type, toolUseId: outerCtx.toolUseId }, subagentHooks());
      // As claude 2.1.334: the subagent is offered the subagent tool too (unless its agent's tools leave it out or it is
      // as deep as subagents go), and a call to it runs a nested subagent, reported as a task one deeper under this one.
      const offered = spawnDepth < MAX_SUBAGENT_SPAWN_DEPTH && (type === 'general-purpose' || agents()[type]?.tools === undefined || agents()[type]!.tools!.some(isSubagentToolName));
      const ctx = offered ? withNestedAgentTool(hooked, () => createTaskTool(root, childTools, agents, tasks, subagentHooks, outerCtx.toolUseId, spawnDepth + 1)) : hooked;
      if (!tasks || !ctx.runChild) return agent.call(input, ctx) as Promise<ToolCallResult>;
      if (background) return agent.call({ ...input, run_in_background: true }, ctx) as Promise<ToolCallResult>;
      return agent.call(input, trackedForeground(ctx, tasks, call)) as Promise<ToolCallResult>;
    },
  });
}

/**
 * The call's context with a `runChild` that runs the program's SubagentStart hooks before the child (their
 * `additionalContext` opens its prompt), its SubagentStop hooks as the child's Stop hooks and its tool hooks for the
 * child's calls (foreground and background alike).
 */
function withSubagentHooks(ctx: ToolContext, agent: SubagentOfHooks, hooks: SubagentHooks | undefined): ToolContext {
  const runChild = ctx.runChild;
  if (!hooks || !runChild) return ctx;
  return Object.assign(Object.create(ctx) as ToolContext, {
    runChild: async (request: Parameters<typeof runChild>[0]) => {
      const { additionalContext } = await hooks.started(agent, ctx.signal);
      // As claude 2.1.334: the context opens the subagent's first message, as a system reminder.
      const prompt = additionalContext ? `<system-reminder>\nSubagentStart hook additional context: ${additionalContext}\n</system-reminder>\n${request.prompt}` : request.prompt;
      const stop = hooks.stopHook(agent);
      const { pre, post } = hooks.toolHooks(agent);
      return runChild({
        ...request,
        prompt,
        ...(stop ? { stopHooks: [...(request.stopHooks ?? []), stop] } : {}),
        ...(pre.length > 0 ? { preToolHooks: pre } : {}),
        ...(post.length > 0 ? { postToolHooks: post } : {}),
      });
    },
  });
}

/** The call's context with a `runChild` whose child also has the subagent tool (`nested`, made for this call). */
function withNestedAgentTool(ctx: ToolContext, nested: () => Tool): ToolContext {
  const runChild = ctx.runChild;
  if (!runChild) return ctx;
  return Object.assign(Object.create(ctx) as ToolContext, {
    runChild: (request: Parameters<typeof runChild>[0]) => runChild({ ...request, tools: [nested(), ...(request.tools ?? [])] }),
  });
}

/** The call's context with a `runChild` that reports the foreground child as a task: started, then ended. */
function trackedForeground(ctx: ToolContext, tasks: SessionTasks, call: Parameters<SessionTasks['started']>[0]): ToolContext {
  const runChild = ctx.runChild!;
  return Object.assign(Object.create(ctx) as ToolContext, {
    runChild: (request: Parameters<typeof runChild>[0]) => {
      tasks.started(call);
      const running = runChild(request);
      running.then(
        (result) => tasks.ended(call.toolUseId, result),
        (error: unknown) => tasks.ended(call.toolUseId, { error }),
      );
      return running;
    },
  });
}

/**
 * A file tool that works in the working directory and in each `--add-dir` (the SDK's `additionalDirectories`), as
 * the real executable's do: a call whose absolute path lies in an added directory goes to an instance confined to
 * that directory, everything else to the working directory's. Each instance keeps its own confinement
 * (confine-path.ts), so a symlink still cannot lead out of the directory the call was given.
 */
function inDirectories(make: (root: string) => Tool, root: string, added: readonly string[]): Tool {
  const main = make(root);
  if (added.length === 0) return main;
  const others = added.map((dir) => ({ dir, tool: make(dir) }));
  const pick = (input: unknown): Tool => {
    const fields = (input ?? {}) as { file_path?: unknown; path?: unknown };
    const requested = typeof fields.file_path === 'string' ? fields.file_path : fields.path;
    if (typeof requested !== 'string' || !isAbsolute(requested) || isInside(root, resolve(requested))) return main;
    return others.find(({ dir }) => isInside(dir, resolve(requested)))?.tool ?? main;
  };
  return {
    ...main,
    isConcurrencySafe: (input) => pick(input).isConcurrencySafe(input),
    isReadOnly: (input) => pick(input).isReadOnly(input),
    validateInput: (input, ctx) => pick(input).validateInput(input, ctx),
    checkPermissions: (input, ctx) => pick(input).checkPermissions(input, ctx),
    call: (input, ctx) => pick(input).call(input, ctx),
  };
}

/**
 * The main thread's Bash as claude 2.1.334 shows it to the model (probed, test/agent-sdk/programs/parity-bash-cwd.ts):
 * a call after which the shell is elsewhere (a `cd`, or a `cd` out of the project undone) ends with a
 * `# Environment update` reminder naming the new directory and the old. A call that ends where it began (`cd .`, a
 * `cd` there and back) adds none; the subagents' Bash, which never moves, adds none.
 */
function withEnvironmentUpdate(bash: BashTool, spelled: (dir: string) => string): Tool {
  return {
    ...bash,
    call: async (input, ctx) => {
      const was = spelled(bash.workingDirectory());
      const result = await (bash.call(input as Parameters<BashTool['call']>[0], ctx) as Promise<ToolCallResult>);
      const now = spelled(bash.workingDirectory());
      if (now === was || typeof result.content !== 'string') return result;
      // The runtime words an empty result only when it is empty; with the reminder after it, say so here (as claude).
      const output = !result.isError && isEmptyContent(result.content) ? emptyResultText(bash.name) : result.content;
      return { ...result, content: `${output}\n\n${environmentUpdateReminder(now, was)}` };
    },
  } as Tool;
}

/** A real path inside the root, spelled from the root as it was given (a project reached through a link keeps its name). */
function spelledFromRoot(root: string): (dir: string) => string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A root that cannot be resolved is compared as given.
  }
  return (dir) => {
    if (!isInside(real, dir)) return dir;
    const inside = relative(real, dir);
    return inside === '' ? root : join(root, inside);
  };
}

export function selectSdkTools(options: { root: string; /** `--add-dir`s, absolute. */ additionalDirectories?: readonly string[]; /** Variables set for Bash commands over the process's (the settings files' `env`). */ env?: Readonly<Record<string, string>>; tools?: readonly string[]; disallowedTools: readonly string[]; agents?: () => Readonly<Record<string, SdkAgentDefinition>>; /** The session's tasks: Task calls are reported as tasks and `run_in_background` ones run in the background. */ tasks?: SessionTasks; /** The program's SubagentStart/SubagentStop hooks, read at each Task call. */ subagentHooks?: () => SubagentHooks | undefined }): SdkToolSelection {
  const { root } = options;
  const added = options.additionalDirectories ?? [];
  const env = options.env && Object.keys(options.env).length > 0 ? { env: options.env } : {};
  const bash = createBashTool({ root, allowedDirectories: added, ...env });
  const files: Record<string, Tool> = {
    Bash: bash,
    Glob: inDirectories(createGlobTool, root, added),
    Grep: inDirectories(createGrepTool, root, added),
    Read: inDirectories(createReadTool, root, added),
    Edit: inDirectories(createEditTool, root, added),
    Write: inDirectories(createWriteTool as (root: string) => Tool, root, added),
  };
  // `Agent` and `Task` name the same tool in an option.
  const removed = new Set(options.disallowedTools.filter((rule) => !rule.includes('(')).map((name) => (name === SUBAGENT_TOOL_NAME ? LEGACY_SUBAGENT_TOOL_NAME : name)));
  const asked = options.tools === undefined || options.tools.includes('default') ? [...BUILTIN_TOOL_NAMES] : [...options.tools];
  const unknown = asked.filter((name) => !(BUILTIN_TOOL_NAMES as readonly string[]).includes(name) && name !== 'default' && name !== SUBAGENT_TOOL_NAME);
  const chosen = asked.map((name) => (name === SUBAGENT_TOOL_NAME ? LEGACY_SUBAGENT_TOOL_NAME : name)).filter((name) => !removed.has(name));
  // As claude 2.1.334: a subagent's Bash calls start where the main thread's shell is, and keep no `cd`.
  const childFiles: Record<string, Tool> = { ...files, Bash: createBashTool({ root, allowedDirectories: added, ...env, follow: () => bash.workingDirectory() }) };
  const childTools = Object.entries(childFiles).filter(([name]) => chosen.includes(name)).map(([, tool]) => tool);
  const tools: Tool[] = [];
  if (chosen.includes(LEGACY_SUBAGENT_TOOL_NAME)) {
    tools.push(createTaskTool(root, childTools, options.agents ?? (() => ({})), options.tasks, options.subagentHooks ?? (() => undefined)));
  }
  // Directories as the program named the project (its real path only where the shell left it).
  const spelled = spelledFromRoot(root);
  for (const name of BUILTIN_TOOL_NAMES) if (name !== 'Task' && chosen.includes(name)) tools.push(name === 'Bash' ? withEnvironmentUpdate(bash, spelled) : files[name]);
  return { tools, unknown, shellDirectory: () => spelled(bash.workingDirectory()) };
}
