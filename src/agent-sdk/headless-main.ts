/**
 * `turnloop` as Claude Code's headless executable (docs/agent-sdk.md): the Agent SDK's command line
 * (`--output-format stream-json --verbose --input-format stream-json ...`, the stream-json protocol on stdin and
 * stdout) and the shell form `turnloop -p "<prompt>" [--output-format text|json|stream-json]`. Offline with
 * `--fake-api <script.json>` (the fake-API script `turnloop resume --fake-api` takes), else the real API
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). Exit codes: 0, 1 after an error result, 2 bad input.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isTurnloopError } from '../errors/turnloop-error.ts';
import { createAnthropicModelCaller } from '../model/anthropic-model-caller.ts';
import { nodeHttpFetch } from '../model/node-http-fetch.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { FakeApi, FakeScriptInput, startFakeAnthropicApi } from '../fake-api/index.ts';
import type { Message } from '../messages/types.ts';
import { ControlChannel } from './control-channel.ts';
import { HeadlessArgsError, parseHeadlessArgs, type HeadlessArgs } from './headless-args.ts';
import { HeadlessSession } from './headless-session.ts';
import type { SessionHooks } from './session-settings.ts';
import type { JsonObject } from './json-lines.ts';
import { isPermissionMode, type PermissionMode } from './permission-modes.ts';
import { runPrintMode } from './print-mode.ts';
import { hookRegistryProblem, runSessionStartHooks, sdkPostToolHook, sdkPreToolHook, sdkStopHook, sdkSubagentHooks, type HookContext, type HookRegistry } from './sdk-hooks.ts';
import type { SdkMcpConnection } from './sdk-mcp-servers.ts';
import { childLogPath } from '../replay/child-log-files.ts';
import { SessionTasks } from './session-tasks.ts';
import { selectSdkTools, type SdkAgentDefinition } from './sdk-tools.ts';
import { connectCommandLineMcp, mcpServersOfFlags, type CommandLineMcp } from './command-line-mcp.ts';
import { claimSession, isSafeSessionId, latestSessionId, loadConversation, sessionLogPath, type SessionClaim } from './session-store.ts';
import { resolveModelAlias } from '../config/config.ts';
import { effortParam, thinkingParam } from './request-options.ts';
import { parseSettingSources } from './setting-sources.ts';
import { readSettingsPermissions, settingsProblemLines } from './settings-permissions.ts';
import { readFlagSettings } from './flag-settings.ts';
import { findMainAgent, mainAgentTools } from './main-agent.ts';
import { commandHookRunner, withCommandHooks } from './command-hooks.ts';
import { createSkillTool, loadSources, skillAllowList, sourcesContext } from './skills.ts';
import { createStructuredOutput, DEFAULT_MAX_ATTEMPTS, STRUCTURED_OUTPUT_TOOL } from './structured-output.ts';
import { driveStreamJson, initializeSystemPrompt, unreadInitializeFields, type InitializeRequest } from './stream-json-driver.ts';
import { messageOf } from '../errors/message-of.ts';

export interface HeadlessIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
}

export const EXIT_BAD_INPUT = 2;

const DEFAULT_SYSTEM_PROMPT = [
  'You are a coding agent running headless for a program (through turnloop).',
  'Use the tools to inspect and change the working directory; keep changes small and finish with a short summary.',
].join(' ');

const STRUCTURED_OUTPUT_PROMPT = `When you have the final answer, give it by calling the ${STRUCTURED_OUTPUT_TOOL} tool once, with input that matches its schema.`;

/** The real executable's override of the structured-output tries. */
function maxStructuredOutputAttempts(env: Record<string, string | undefined>): number {
  const n = Number(env.MAX_STRUCTURED_OUTPUT_RETRIES);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_ATTEMPTS;
}

/** The agents a Task call can start, sorted as the real executable lists them: the built-in one and the program's. */
function agentNames(programAgents: readonly string[]): string[] {
  return [...new Set(['general-purpose', ...programAgents])].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

/**
 * Reads and checks a `--fake-api` script before anything starts: a file of the wrong shape is bad input, naming the
 * place. The fake API (its script schema, its server) loads only here: a session against the real API never pays
 * for it.
 */
async function readFakeScript(path: string, cwd: string): Promise<{ script: FakeScriptInput; start: typeof startFakeAnthropicApi }> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(resolve(cwd, path), 'utf8'));
  } catch (error) {
    throw new HeadlessArgsError(`--fake-api: cannot read ${path}: ${messageOf(error)}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const got = Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`;
    throw new HeadlessArgsError(`--fake-api: ${path}: (root): expected an object {model: [replies], compactionModel?: [replies], agentRuns?: {name: [replies]}}, got ${got}`);
  }
  const { model, compactionModel, agentRuns } = data as Record<string, unknown>;
  const script = { model: model ?? [], ...(compactionModel !== undefined ? { compactionModel } : {}), ...(agentRuns !== undefined ? { agentRuns } : {}) };
  const { parseFakeScript, startFakeAnthropicApi } = await import('../fake-api/index.ts');
  try {
    parseFakeScript(script, path);
  } catch (error) {
    throw new HeadlessArgsError(`--fake-api: ${messageOf(error)}`);
  }
  return { script: script as FakeScriptInput, start: startFakeAnthropicApi };
}

/** The session's id and history; its lock is taken (session-store.ts) before its log is read, unless not persisted. */
async function sessionIdentity(args: HeadlessArgs, cwd: string): Promise<{ sessionId: string; history: Message[]; claim?: SessionClaim }> {
  const continued = args.resume ?? (args.continueLatest ? latestSessionId(cwd) : undefined);
  const sessionId = args.sessionId ?? (continued !== undefined && !args.forkSession ? continued : randomUUID());
  if (!isSafeSessionId(sessionId)) throw new HeadlessArgsError(`--session-id: '${sessionId}' is not usable as a session id (letters, digits, '.', '_', '-')`);
  const claim = args.noSessionPersistence ? undefined : claimSession(cwd, sessionId, { fresh: sessionId !== continued });
  try {
    return { sessionId, history: continued === undefined ? [] : await loadConversation(cwd, continued), ...(claim ? { claim } : {}) };
  } catch (error) {
    claim?.release();
    throw error;
  }
}

/** Runs the headless mode; the exit code. */
export async function runHeadlessCli(argv: string[], io: HeadlessIo): Promise<number> {
  const warn = (text: string) => io.stderr.write(`turnloop: ${text}\n`);
  // The model adapter loads the Anthropic SDK's client on its first call; start loading it now, while the program
  // sends `initialize` and its first message, so the first turn does not wait for it.
  void import('../model/messages-client.ts').catch(() => undefined);
  let fake: FakeApi | null = null;
  let fakeApiLog: string | undefined;
  let sdkMcp: SdkMcpConnection | null = null;
  let commandMcp: CommandLineMcp | null = null;
  let claim: SessionClaim | undefined;
  try {
    const args = parseHeadlessArgs(argv);
    fakeApiLog = args.fakeApiLog === undefined ? undefined : resolve(io.cwd, args.fakeApiLog);
    if (args.ignored.length > 0) warn(`ignoring options turnloop does not implement: ${args.ignored.join(', ')}`);
    if (args.permissionMode !== undefined && !isPermissionMode(args.permissionMode)) throw new HeadlessArgsError(`--permission-mode expects one of default, acceptEdits, plan, bypassPermissions, dontAsk, got '${args.permissionMode}'`);
    if (args.permissionPromptTool !== undefined && args.permissionPromptTool !== 'stdio') {
      warn(`--permission-prompt-tool ${args.permissionPromptTool}: only 'stdio' is supported; calls that need asking are denied`);
    }
    // A bad --thinking value is bad input: refuse it before anything starts.
    thinkingParam(args, args.model ?? '');
    const effort = effortParam(args.effort);
    const fakeScript = args.fakeApi === undefined ? undefined : await readFakeScript(args.fakeApi, io.cwd);
    const identity = await sessionIdentity(args, io.cwd);
    const { sessionId, history } = identity;
    claim = identity.claim;
    let callModel;
    if (fakeScript !== undefined) {
      fake = await fakeScript.start(fakeScript.script);
      callModel = createAnthropicModelCaller({ apiKey: 'fake-key', baseURL: fake.baseURL, fetch: nodeHttpFetch, onRetry: (notice) => session?.reportRetry(notice) });
    } else {
      const apiKey = io.env.ANTHROPIC_API_KEY;
      if (!apiKey) throw new HeadlessArgsError('no ANTHROPIC_API_KEY: set it, or pass --fake-api <script.json> to run offline against a scripted model');
      // Our fetch over node:http, not Node's: it spares a fresh process undici's start-up (docs/agent-sdk.md).
      callModel = createAnthropicModelCaller({ apiKey, ...(io.env.ANTHROPIC_BASE_URL ? { baseURL: io.env.ANTHROPIC_BASE_URL } : {}), fetch: nodeHttpFetch, onRetry: (notice) => session?.reportRetry(notice) });
    }
    const structuredOutput = args.jsonSchema === undefined ? undefined : await createStructuredOutput(args.jsonSchema, maxStructuredOutputAttempts(io.env));
    const settingSources = parseSettingSources(args.settingSources);
    const loaded = await loadSources(settingSources, io.cwd, io.env, warn);
    // The settings files' permission rules apply as the flags' do; their defaultMode when no --permission-mode is given.
    const fromSettings = readSettingsPermissions(settingSources, io.cwd, io.env, readFlagSettings(args.settings, io.cwd));
    for (const line of [...settingsProblemLines(fromSettings.problems), ...fromSettings.ignored]) warn(`settings: ${line}`);
    // The settings' command hooks answer their own hook_callback requests (command-hooks.ts); `env` is over the process's.
    const commandHooks = commandHookRunner(fromSettings.hooks, { cwd: io.cwd, env: { ...io.env, ...fromSettings.env }, sessionId, write: (message) => write(message), warn });
    const mode = args.permissionMode ?? fromSettings.defaultMode ?? 'default';
    // The program's `model`, else the settings' (claude's order: the option wins).
    const sessionModel = args.model ?? fromSettings.model;
    const allowedTools = [...args.allowedTools, ...fromSettings.rules.allow];
    const disallowedTools = [...args.disallowedTools, ...fromSettings.rules.deny];
    let initialize: InitializeRequest = {};
    // The program's `skills` allow-list comes with `initialize` (checked there); until then every skill is offered.
    let offeredSkills = skillAllowList(undefined)!;
    const skillTool = loaded.skills.length > 0 ? createSkillTool(loaded.skills, () => offeredSkills) : undefined;
    // As the real executable: each Task call is a task; one with run_in_background returns at once, and its report
    // starts a turn of its own when the child ends.
    const tasks = new SessionTasks({
      write: (message) => write(message),
      sessionId,
      outputFile: (toolUseId) => (args.noSessionPersistence ? undefined : childLogPath(sessionLogPath(io.cwd, sessionId), [toolUseId])),
    });
    const selection = selectSdkTools({
      tasks,
      root: io.cwd,
      additionalDirectories: [...args.addDirs.map((dir) => resolve(io.cwd, dir)), ...fromSettings.additionalDirectories],
      env: fromSettings.env,
      ...(args.tools ? { tools: args.tools } : {}),
      disallowedTools,
      agents: () => (initialize.agents ?? {}) as Record<string, SdkAgentDefinition>,
      subagentHooks: () => (hookRegistry.SubagentStart || hookRegistry.SubagentStop || hookRegistry.PreToolUse || hookRegistry.PostToolUse || hookRegistry.PostToolUseFailure
        ? sdkSubagentHooks(hookRegistry, hookContext(), (agent) => (args.noSessionPersistence ? '' : childLogPath(sessionLogPath(io.cwd, sessionId), [agent.toolUseId])), () => tasks.backgroundTasks())
        : undefined),
    });
    for (const name of selection.unknown) warn(`the tool '${name}' is not available in turnloop; it is left out`);

    commandMcp = await connectCommandLineMcp(mcpServersOfFlags(args.mcpConfigs, io.cwd, warn), io.env, warn);
    const streaming = args.inputFormat === 'stream-json';
    const write = streaming || args.outputFormat === 'stream-json'
      ? (message: JsonObject) => {
        io.stdout.write(`${JSON.stringify(message)}\n`);
        commandHooks.written(message);
      }
      : () => undefined;
    const channel = new ControlChannel(write);
    const askProgram = (request: JsonObject, signal?: AbortSignal) => channel.request(request as JsonObject & { subtype: string }, signal);
    let hookRegistry: HookRegistry = commandHooks.registry;
    let session: HeadlessSession | null = null;
    let mcpServers: Array<{ name: string; status: string }> = [...commandMcp.servers];
    const extraTools: Tool[] = [];
    const hookContext = (): HookContext => ({
      ask: (request, signal) => commandHooks.answer(request, signal) ?? askProgram(request, signal),
      base: () => ({ session_id: sessionId, transcript_path: args.noSessionPersistence ? '' : sessionLogPath(io.cwd, sessionId), cwd: selection.shellDirectory(), ...(session?.promptId ? { prompt_id: session.promptId } : {}), permission_mode: session?.permissionMode ?? mode }),
      effort: () => session?.hookEffort(),
      warn,
    });
    const hooks = (): SessionHooks => ({
      preToolHooks: hookRegistry.PreToolUse ? [sdkPreToolHook(hookRegistry, hookContext())] : [],
      postToolHooks: [...(skillTool ? [skillTool.hook] : []), ...(hookRegistry.PostToolUse || hookRegistry.PostToolUseFailure ? [sdkPostToolHook(hookRegistry, hookContext(), (toolUseId) => tasks.toolResponse(toolUseId))] : [])],
      stopHooks: hookRegistry.Stop ? [sdkStopHook(hookRegistry, hookContext())] : [],
    });
    // The settings' SessionStart hooks run as the session starts (claude: before the first prompt, also on a resume).
    const sessionStart = commandHooks.registry.SessionStart ? runSessionStartHooks(commandHooks.registry, hookContext(), history.length > 0 ? 'resume' : 'startup') : undefined;
    const makeSession = () => {
      // The SDK sends `[""]` when the program gives no systemPrompt: claude then uses its own short prompt, turnloop its own.
      const systemPrompt = initializeSystemPrompt(initialize.systemPrompt) ?? (args.systemPrompt !== undefined ? [args.systemPrompt] : [DEFAULT_SYSTEM_PROMPT]);
      // `--agent`: the main thread as one of the program's agents (its prompt after the session's, its tools).
      const found = args.agent === undefined ? undefined : findMainAgent(args.agent, initialize.agents ?? {});
      if (found && 'problem' in found) warn(found.problem);
      const agent = found && 'agent' in found ? found.agent : undefined;
      const append = [initialize.appendSystemPrompt, args.appendSystemPrompt, structuredOutput ? STRUCTURED_OUTPUT_PROMPT : undefined].filter((p): p is string => typeof p === 'string' && p !== '');
      return new HeadlessSession(
        {
          sessionId,
          cwd: io.cwd,
          ...(sessionModel ? { model: resolveModelAlias(sessionModel) } : {}),
          ...(args.fallbackModel ? { fallbackModel: resolveModelAlias(args.fallbackModel) } : {}),
          ...(args.thinking !== undefined || args.maxThinkingTokens !== undefined ? { thinking: (model: string, maxTokens: number) => thinkingParam(args, model, maxTokens) } : {}),
          ...(args.taskBudget !== undefined ? { taskBudget: args.taskBudget } : {}),
          ...(effort ? { effort } : {}),
          permissionMode: mode as PermissionMode,
          settingSources,
          ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
          ...(args.maxBudgetUsd !== undefined ? { maxBudgetUsd: args.maxBudgetUsd } : {}),
          allowedTools,
          disallowedTools,
          askRules: fromSettings.rules.ask,
          settingsProblems: fromSettings.problems,
          partialMessages: args.includePartialMessages,
          quickRetries: fake !== null,
          forwardSubagentText: () => (initialize as { forwardSubagentText?: unknown }).forwardSubagentText === true,
          ...(args.noSessionPersistence ? {} : { logPath: sessionLogPath(io.cwd, sessionId) }),
          systemPrompt: [...systemPrompt, ...(agent?.prompt ? [agent.prompt] : []), ...append],
          unknownTools: selection.unknown,
          mcpServers: () => mcpServers,
          agents: () => agentNames(Object.keys(initialize.agents ?? {})),
          skills: loaded.skills.map((skill) => skill.name),
          apiKeySource: fake ? 'none' : 'ANTHROPIC_API_KEY',
          additionalDirectories: args.addDirs,
          ...(sourcesContext(loaded, offeredSkills) ? { startContext: sourcesContext(loaded, offeredSkills) } : {}),
        },
        {
          callModel,
          tools: () => {
            const all = [...selection.tools, ...(skillTool ? [skillTool.tool] : []), ...(structuredOutput ? [structuredOutput.tool] : []), ...extraTools, ...(commandMcp?.tools() ?? [])];
            return agent ? mainAgentTools(all, agent) : all;
          },
          write,
          warn,
          ...(args.permissionPromptTool === 'stdio' ? { ask: askProgram } : {}),
          hooks,
          ...(structuredOutput ? { structuredOutput } : {}),
          tasks,
          ...(sessionStart ? { sessionStartReminders: () => sessionStart } : {}),
        },
        history,
      );
    };
    const sessionOnce = async () => (session ??= makeSession());

    if (!streaming) {
      const prompt = args.prompt ?? (await readAll(io.stdin));
      if (prompt.trim() === '') throw new HeadlessArgsError('-p expects a prompt (an argument, or text on stdin)');
      return await runPrintMode(await sessionOnce(), prompt, args.outputFormat, io, tasks);
    }
    if (args.outputFormat !== 'stream-json') throw new HeadlessArgsError('--input-format stream-json needs --output-format stream-json');
    const { lastResultIsError } = await driveStreamJson({
      input: io.stdin,
      write,
      warn,
      channel,
      async onInitialize(request) {
        initialize = request;
        const unread = unreadInitializeFields(request);
        if (unread.length > 0) warn(`ignoring initialize fields turnloop does not implement: ${unread.join(', ')}`);
        const hooksProblem = hookRegistryProblem(request.hooks);
        if (hooksProblem) throw new HeadlessArgsError(`initialize: ${hooksProblem}`);
        const skills = (request as { skills?: unknown }).skills;
        const offered = skillAllowList(skills);
        if (!offered) throw new HeadlessArgsError(`initialize: skills: expected an array of skill names or 'all', got ${JSON.stringify(skills)}`);
        offeredSkills = offered;
        // The SDK's `title`: claude names the session with it and says so before the first turn's `init`.
        const { title } = request as { title?: unknown };
        if (typeof title === 'string' && title.trim() !== '') write({ type: 'system', subtype: 'session_title_changed', title, uuid: randomUUID(), session_id: sessionId });
        else if (title !== undefined && title !== null) warn(`initialize: title: expected a non-empty string, got ${JSON.stringify(title)}; ignored`);
        hookRegistry = withCommandHooks(commandHooks.registry, request.hooks);
        const configured = (request as { mcpServers?: Record<string, unknown> }).mcpServers;
        if (configured && Object.keys(configured).length > 0) {
          const more = await connectCommandLineMcp(configured, io.env, warn);
          const earlier = commandMcp;
          commandMcp = { tools: () => [...(earlier?.tools() ?? []), ...more.tools()], servers: [...(earlier?.servers ?? []), ...more.servers], close: async () => { await earlier?.close(); await more.close(); } };
          mcpServers = [...commandMcp.servers];
        }
        if (request.sdkMcpServers && request.sdkMcpServers.length > 0) {
          // The in-process MCP bridge (and its JSON Schema compiler) loads only for a program that declares SDK servers.
          const { connectSdkMcpServers } = await import('./sdk-mcp-servers.ts');
          sdkMcp = await connectSdkMcpServers(request.sdkMcpServers, askProgram, warn);
          extraTools.push(...sdkMcp.tools);
          mcpServers = [...mcpServers, ...sdkMcp.servers];
        }
        // What the SDK's supportedCommands() and supportedAgents() answer.
        const programAgents = (request.agents ?? {}) as Record<string, SdkAgentDefinition>;
        return {
          commands: loaded.skills.map((skill) => ({ name: skill.name, description: skill.description, argumentHint: '' })),
          agents: agentNames(Object.keys(programAgents)).map((name) => ({
            name,
            description: name === 'general-purpose' ? 'A subagent with the session\'s tools, for one self-contained task.' : programAgents[name]?.description ?? name,
            ...(programAgents[name]?.model ? { model: programAgents[name].model } : {}),
          })),
        };
      },
      session: sessionOnce,
      hookContext,
      hooks: () => hookRegistry,
      tasks,
    });
    return lastResultIsError ? 1 : 0;
  } catch (error) {
    const message = messageOf(error);
    io.stderr.write(`turnloop: ${message}\n`);
    const badInput = isTurnloopError(error) && (error.code === 'SDK_SESSION_NOT_FOUND' || (error as { exitCode?: number }).exitCode === EXIT_BAD_INPUT);
    return error instanceof HeadlessArgsError || badInput ? EXIT_BAD_INPUT : 1;
  } finally {
    claim?.release();
    await (sdkMcp as SdkMcpConnection | null)?.close();
    await (commandMcp as CommandLineMcp | null)?.close();
    await fake?.close();
    // What the scripted model received, for a test to assert on (agentSdkOptions().requests()).
    if (fake && fakeApiLog) {
      try {
        writeFileSync(fakeApiLog, (fake as FakeApi).log.map((entry) => `${JSON.stringify({ path: entry.path, body: entry.body, ...(entry.rejected ? { rejected: entry.rejected } : {}), ...(entry.exhausted ? { exhausted: true } : {}) })}\n`).join(''));
      } catch (error) {
        io.stderr.write(`turnloop: --fake-api-log ${fakeApiLog}: ${messageOf(error)}\n`);
      }
    }
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}
