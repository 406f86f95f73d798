/**
 * The stream-json protocol on stdin (docs/agent-sdk.md): the `initialize` control request, then `user` messages,
 * each running the next turn of the conversation in order; `interrupt`, `set_permission_mode` and `set_model` act
 * at once, even while a turn runs; `mcp_status` lists the MCP servers; any other control request is answered with
 * an error response (never left
 * unanswered); `control_response`s settle our own requests. A background subagent's notification (session-tasks.ts)
 * is queued as a turn of its own, in order with the user messages. The driver ends when stdin has closed, no
 * background subagent is running, and the last queued turn has written its result.
 */
import { resolveModelAlias } from '../config/config.ts';
import type { UserContentBlock } from '../messages/types.ts';
import { promptBlockedResult } from './result-message.ts';
import { ControlChannel } from './control-channel.ts';
import { readJsonLines, type JsonObject } from './json-lines.ts';
import { isPermissionMode } from './permission-modes.ts';
import { runPromptHooks, type HookContext, type HookRegistry } from './sdk-hooks.ts';
import { userContentOf, type HeadlessSession } from './headless-session.ts';
import type { SessionTasks } from './session-tasks.ts';
import { messageOf } from '../errors/message-of.ts';

/** What `initialize` carried that the session needs. */
export interface InitializeRequest {
  hooks?: HookRegistry;
  sdkMcpServers?: string[];
  systemPrompt?: string[];
  appendSystemPrompt?: string;
  agents?: Record<string, unknown>;
}

/**
 * The system prompt `initialize` names, or undefined when it names none: the SDK sends `[""]` for a program that
 * gives no `systemPrompt` (and for `''`). claude 2.1.334 then uses a short prompt of its own; turnloop uses its own
 * short one too (the caller's default), never claude's text.
 */
export function initializeSystemPrompt(prompt: string[] | undefined): string[] | undefined {
  return prompt && prompt.some((part) => part.trim() !== '') ? prompt : undefined;
}

/**
 * The `initialize` fields turnloop reads, or that repeat what it reads elsewhere (the schema and the disallowed
 * tools also come as flags; the SDK servers' manifests describe servers the bridge asks itself). The SDK sends a
 * field only when the program set the option behind it, so any other field present is an option turnloop ignores:
 * `unreadInitializeFields` names them, and the caller says so on stderr (nothing ignored silently).
 */
const INITIALIZE_FIELDS_READ = new Set([
  'subtype', 'hooks', 'sdkMcpServers', 'sdkMcpServerConfigs', 'sdkMcpServerManifests', 'jsonSchema', 'systemPrompt',
  'appendSystemPrompt', 'agents', 'forwardSubagentText', 'mcpServers', 'disallowedTools', 'skills', 'title',
]);

export function unreadInitializeFields(request: object): string[] {
  return Object.entries(request).filter(([key, value]) => value !== undefined && value !== null && !INITIALIZE_FIELDS_READ.has(key)).map(([key]) => key);
}

export interface StreamJsonDriverOptions {
  input: NodeJS.ReadableStream;
  write(message: JsonObject): void;
  warn(text: string): void;
  channel: ControlChannel;
  /** Called once for `initialize`; what it returns is added to the response (commands, agents). Runs before any turn starts. */
  onInitialize(request: InitializeRequest): Promise<JsonObject | void>;
  /** The session, created after `initialize` (or at the first user message when none came). */
  session(): Promise<HeadlessSession>;
  hookContext(): HookContext;
  hooks(): HookRegistry;
  /** The session's background subagents: their notifications become turns, and the driver waits for them. */
  tasks?: Pick<SessionTasks, 'running' | 'takeNotice' | 'onNotice'>;
}

/** A queued turn: a user message from stdin, or a finished background subagent's notification. */
type QueuedTurn = { kind: 'user'; message: JsonObject } | { kind: 'notice'; notice: NonNullable<ReturnType<SessionTasks['takeNotice']>> };

const INITIALIZE_RESPONSE = {
  commands: [],
  agents: [],
  output_style: 'default',
  available_output_styles: ['default'],
  models: [],
  account: {},
};

function textOf(content: string | UserContentBlock[]): string {
  // `b?.`: a malformed block is refused by the turn (userContentProblem), with a result; it must not throw here.
  return typeof content === 'string' ? content : content.flatMap((b) => (b?.type === 'text' ? [b.text] : [])).join('\n');
}

/** Runs the protocol to its end; resolves with whether the last result was an error. */
export async function driveStreamJson(options: StreamJsonDriverOptions): Promise<{ lastResultIsError: boolean }> {
  const { write, warn, channel } = options;
  const queue: QueuedTurn[] = [];
  let wake: (() => void) | null = null;
  let inputClosed = false;
  let initializing: Promise<void> = Promise.resolve();
  let running: HeadlessSession | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const respond = (requestId: unknown, response: JsonObject) => write({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
  const refuse = (requestId: unknown, error: string) => write({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error } });

  const onControlRequest = (message: JsonObject) => {
    const requestId = message.request_id;
    const request = (message.request ?? {}) as JsonObject;
    switch (request.subtype) {
      case 'initialize':
        initializing = options.onInitialize(request as InitializeRequest).then(
          (extra) => respond(requestId, { ...INITIALIZE_RESPONSE, ...(extra ?? {}) }),
          (error: unknown) => refuse(requestId, messageOf(error)),
        );
        return;
      case 'interrupt':
        running?.interrupt();
        respond(requestId, { still_queued: [] });
        return;
      case 'set_permission_mode':
        if (!isPermissionMode(request.mode)) return refuse(requestId, `unsupported permission mode '${String(request.mode)}' (turnloop supports default, acceptEdits, plan, bypassPermissions, dontAsk)`);
        void options.session().then((session) => {
          session.permissionMode = request.mode as typeof session.permissionMode;
          respond(requestId, { mode: request.mode });
        });
        return;
      case 'set_model':
        void options.session().then((session) => {
          session.model = typeof request.model === 'string' && request.model !== 'default' ? resolveModelAlias(request.model) : undefined;
          respond(requestId, {});
        });
        return;
      case 'mcp_status':
        void initializing.then(() => options.session()).then((session) => respond(requestId, { mcpServers: [...session.settings.mcpServers()] }));
        return;
      default:
        refuse(requestId, `turnloop does not support the control request '${String(request.subtype)}'`);
    }
  };

  const reading = readJsonLines(options.input, {
    onObject(message, lineNumber) {
      switch (message.type) {
        case 'control_response':
          if (!channel.handleResponse(message)) warn(`stdin line ${lineNumber}: a control_response that answers no pending request`);
          return;
        case 'control_request':
          onControlRequest(message);
          return;
        case 'control_cancel_request':
        case 'keep_alive':
        case 'update_environment_variables':
          return;
        case 'user':
          queue.push({ kind: 'user', message });
          notify();
          return;
        default:
          warn(`stdin line ${lineNumber}: ignored a message of type '${String(message.type)}'`);
      }
    },
    onMalformed(lineNumber, reason) {
      warn(`stdin line ${lineNumber} is not a JSON object (${reason}); skipped`);
    },
  }).catch((error: unknown) => warn(`reading stdin failed: ${messageOf(error)}`)).finally(() => {
    inputClosed = true;
    channel.close('stdin was closed before the program answered');
    notify();
  });

  const tasks = options.tasks;
  tasks?.onNotice(() => {
    for (let notice = tasks.takeNotice(); notice; notice = tasks.takeNotice()) queue.push({ kind: 'notice', notice });
    notify();
  });

  let lastResultIsError = false;
  while (true) {
    const queued = queue.shift();
    if (!queued) {
      // As the real executable: a background subagent still running keeps the session open for its notification.
      if (inputClosed && (tasks?.running ?? 0) === 0) break;
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    await initializing;
    const session = await options.session();
    if (queued.kind === 'notice') {
      // Its own turn, with no UserPromptSubmit hook (no user wrote it); the result names what started it.
      running = session;
      const outcome = await session.runTurn(queued.notice.content, { origin: { kind: 'task-notification', producer: 'session-task', runId: queued.notice.runId } });
      running = null;
      write(outcome.result);
      lastResultIsError = outcome.isError;
      continue;
    }
    const next = queued.message;
    const content = userContentOf((next.message as JsonObject | undefined)?.content);
    session.startPrompt();
    const promptHooks = await runPromptHooks(options.hooks(), options.hookContext(), textOf(content));
    if (promptHooks.blocked) {
      // As the real executable: an init, a warning that says why, and a successful result carrying the same text.
      const { kind, reason } = promptHooks.blocked;
      const text = kind === 'blocked_by_hook' ? `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${textOf(content)}` : `Operation stopped by hook: ${reason}`;
      const sessionId = session.settings.sessionId;
      write(session.initMessage());
      write({ type: 'system', subtype: 'informational', content: text, level: 'warning', prevent_continuation: true, prompt_submit_outcome: { kind, prompt_kept: kind === 'stopped_by_hook', reason }, uuid: crypto.randomUUID(), session_id: sessionId });
      const result = promptBlockedResult({ text, sessionId, uuid: crypto.randomUUID() });
      write(result);
      lastResultIsError = result.is_error === true;
      continue;
    }
    running = session;
    const outcome = await session.runTurn(content, {
      ...(typeof next.uuid === 'string' ? { uuid: next.uuid } : {}),
      ...(promptHooks.additionalContext ? { extraContext: promptHooks.additionalContext } : {}),
    });
    running = null;
    write(outcome.result);
    lastResultIsError = outcome.isError;
  }
  await reading;
  return { lastResultIsError };
}
