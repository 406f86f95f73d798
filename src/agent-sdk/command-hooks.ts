/**
 * Command hooks from settings files (settings-hooks.ts), run as claude 2.1.334 runs them (probed offline,
 * docs/agent-sdk-conformance.md). They join the program's callback hooks as registry entries of their own ids
 * (`commandHookRunner().registry`); a `hook_callback` for one of those ids is answered here, by running the command,
 * instead of by the program, so sdk-hooks.ts folds a command's answer exactly as a callback's.
 *
 * A command hook runs only what the user's own settings file says, with the user's rights, in the project: it is
 * `sh -c <command>` in the working directory, `CLAUDE_PROJECT_DIR` set to it and the settings' `env` over the
 * process's variables, the hook input JSON on stdin. Its exit status says what it means:
 * - 0: stdout that is a JSON object is the hook's output (`decision`, `hookSpecificOutput.permissionDecision`,
 *   `continue`, `additionalContext`...); for UserPromptSubmit, other stdout is context for the model, and for
 *   SessionStart it is the hook's success text (`HOOK_SUCCESS_TEXT`), which claude words apart;
 * - 2: blocks, stderr being the reason (PreToolUse denies the call; PostToolUse, Stop, SubagentStop and
 *   UserPromptSubmit block with it);
 * - anything else: a non-blocking error, named on stderr; the call goes on.
 *
 * Invariants: a hook never leaves the session waiting. The command runs in its own process group, killed whole
 * (SIGKILL to `-pgid`) at its `timeout` (claude's default: 600 s), when the call is interrupted, and when this
 * process exits or is stopped by SIGTERM, SIGINT or SIGHUP; its output is capped. A PreToolUse hook that timed out
 * did not check the call: as claude, the program gets a `system/informational` warning (`hook_no_verdict`) and the
 * call goes on. A Stop hook that exits 2 is
 * announced by claude's `system/notification` (`stop-hook-error`).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { JsonObject } from './json-lines.ts';
import { HOOK_SUCCESS_TEXT, type HookRegistry } from './sdk-hooks.ts';
import type { CommandHook, CommandHookConfig } from './settings-hooks.ts';
import { HOOK_DENIAL_TEXT, preToolUseHookErrorText } from './permission-denial-texts.ts';

/** The prefix of a command hook's callback id; a program's ids are the SDK's `hook_<n>`. */
const ID_PREFIX = 'settings-command-hook:';
/** Enough for any hook output; what floods past it is dropped. */
const MAX_OUTPUT_CHARS = 1_000_000;

export interface CommandHookOptions {
  cwd: string;
  /** The environment of the commands: the process's, with the settings' `env` over it. */
  env: Record<string, string | undefined>;
  sessionId: string;
  /** Writes a message to the program (the `hook_no_verdict` warning). */
  write(message: JsonObject): void;
  warn(text: string): void;
}

export interface CommandHookRunner {
  /** The command hooks as registry entries, to be merged with the program's (`withCommandHooks`). */
  registry: HookRegistry;
  /** Told of each message written to the program (a message held until the one before it is written). */
  written(message: JsonObject): void;
  /** Runs the command of a `hook_callback` request that names one of the registry's ids; undefined for other ids. */
  answer(request: JsonObject, signal?: AbortSignal): Promise<JsonObject> | undefined;
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

/** setTimeout's longest delay: a longer one fires at once (a `timeout` of a month would kill the hook at its start). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Process groups of the hook commands running now: killed when this process exits or is stopped by a signal. */
const runningGroups = new Set<number>();
let exitHookInstalled = false;
/**
 * The signals that end this process by default (the SDK closes a session with SIGTERM). A hook's own process group
 * does not get them, so while one runs they are caught: the groups are killed, then the signal is raised again
 * (without our listener) for its usual effect. Listened to only while a hook runs.
 */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function onStopSignal(signal: NodeJS.Signals): void {
  runningGroups.forEach(killGroup);
  runningGroups.clear();
  for (const name of STOP_SIGNALS) process.removeListener(name, onStopSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function track(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => runningGroups.forEach(killGroup));
  }
  if (runningGroups.size === 0) for (const name of STOP_SIGNALS) process.on(name, onStopSignal);
  runningGroups.add(pgid);
}

function untrack(pgid: number): void {
  if (!runningGroups.delete(pgid) || runningGroups.size > 0) return;
  for (const name of STOP_SIGNALS) process.removeListener(name, onStopSignal);
}

function killGroup(pgid: number | undefined): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Runs one command with `input` on stdin; settles when it exits or is killed (never waits on held-open pipes). */
export function runHookCommand(command: string, input: string, options: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number; signal?: AbortSignal }): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const pgid = child.pid;
    if (pgid !== undefined) track(pgid);
    const out = { stdout: '', stderr: '' };
    const take = (key: 'stdout' | 'stderr') => (chunk: string) => {
      if (out[key].length < MAX_OUTPUT_CHARS) out[key] += chunk.slice(0, MAX_OUTPUT_CHARS - out[key].length);
    };
    // Decoded by the stream, so a character split across two reads of the pipe stays whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    // A command that does not read its input closes stdin early: that is not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      killGroup(pgid);
      if (pgid !== undefined) untrack(pgid);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ code, ...out, timedOut, aborted });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pgid);
    }, Math.min(options.timeoutMs, MAX_TIMER_MS));
    const onAbort = () => {
      aborted = true;
      killGroup(pgid);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.once('error', (error) => {
      out.stderr += error.message;
      finish(null);
    });
    // Let the pipes deliver what is already buffered, briefly; a grandchild holding them does not delay the answer.
    child.once('exit', (code) => setTimeout(() => finish(code), 20));
  });
}

/** The events whose exit-2 stderr blocks (the others show it and go on, as claude). */
const BLOCKING_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'UserPromptSubmit']);

/** A finished command as the hook output a program's callback would have answered. */
export function hookOutputOf(event: string, hook: CommandHook, finished: Finished, toolName = ''): { output: JsonObject; problem?: string } {
  const stderr = finished.stderr.trim();
  if (finished.code === 0) {
    const stdout = finished.stdout.trim();
    if (stdout.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(stdout);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { output: parsed as JsonObject };
      } catch {
        return { output: {}, problem: `printed output that starts like JSON but is not valid JSON; it is ignored` };
      }
    }
    if (stdout === '') return { output: {} };
    if (event === 'SessionStart') return { output: { [HOOK_SUCCESS_TEXT]: stdout } };
    return { output: event === 'UserPromptSubmit' ? { hookSpecificOutput: { hookEventName: event, additionalContext: stdout } } : {} };
  }
  if (finished.code === 2) {
    const reason = stderr === '' ? 'no reason was given' : stderr;
    if (event === 'PreToolUse') {
      const denial = preToolUseHookErrorText(toolName, hook.command, reason);
      return { output: { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: denial }, [HOOK_DENIAL_TEXT]: denial } };
    }
    if (BLOCKING_EVENTS.has(event)) return { output: { decision: 'block', reason } };
  }
  return { output: {}, problem: `exited with ${finished.code ?? 'a signal'}${stderr ? `: ${stderr}` : ''}` };
}

/** The events whose command hooks claude 2.1.334 announces to the program (`system/hook_started`, `hook_response`). */
const PROGRESS_EVENTS = new Set(['SessionStart']);

/** Writes a command hook's `system/hook_started` now, and its `system/hook_response` once `finished`. */
function hookProgress(hookName: string, event: string, options: CommandHookOptions): { finished(run: Finished): void } {
  const common = { type: 'system', hook_id: randomUUID(), hook_name: hookName, hook_event: event };
  options.write({ ...common, subtype: 'hook_started', uuid: randomUUID(), session_id: options.sessionId });
  return {
    finished(run) {
      options.write({
        ...common, subtype: 'hook_response', output: `${run.stdout}${run.stderr}`, stdout: run.stdout, stderr: run.stderr, exit_code: run.code,
        outcome: run.code === 0 ? 'success' : 'error', uuid: randomUUID(), session_id: options.sessionId,
      });
    },
  };
}

export function commandHookRunner(config: CommandHookConfig, options: CommandHookOptions): CommandHookRunner {
  const byId = new Map<string, CommandHook>();
  const registry: HookRegistry = {};
  for (const [event, matchers] of Object.entries(config)) {
    registry[event] = (matchers ?? []).map((m) => ({
      ...(m.matcher !== undefined ? { matcher: m.matcher } : {}),
      hookCallbackIds: m.hooks.map((hook) => {
        const id = `${ID_PREFIX}${byId.size}`;
        byId.set(id, hook);
        return id;
      }),
    }));
  }
  const env = { ...options.env, CLAUDE_PROJECT_DIR: options.cwd };
  let afterFeedback: JsonObject | undefined;
  const run = async (hook: CommandHook, request: JsonObject, signal?: AbortSignal): Promise<JsonObject> => {
    const input = (request.input ?? {}) as JsonObject;
    const event = String(input.hook_event_name ?? '');
    const progress = PROGRESS_EVENTS.has(event) ? hookProgress(`${event}:${String(input.source ?? '')}`, event, options) : undefined;
    // As claude 2.1.334, the input is one line ending in a newline (a script's `read` gets all of it).
    const finished = await runHookCommand(hook.command, `${JSON.stringify(input)}\n`, { cwd: options.cwd, env, timeoutMs: hook.timeout * 1000, ...(signal ? { signal } : {}) });
    progress?.finished(finished);
    if (finished.aborted) return {};
    if (finished.timedOut) {
      options.warn(`${event} hook [${hook.command}] did not answer within ${hook.timeout} s; it was stopped`);
      if (event === 'PreToolUse') {
        options.write({
          type: 'system', subtype: 'informational', content: 'A hook didn\'t answer in time, so it didn\'t check this action.', level: 'warning', tag: 'hook_no_verdict',
          hook_no_verdict: { hook_event: event, tool_use_id: input.tool_use_id ?? null, timed_out: true }, uuid: randomUUID(), session_id: options.sessionId,
        });
      }
      return {};
    }
    const { output, problem } = hookOutputOf(event, hook, finished, String(input.tool_name ?? ''));
    if (problem) options.warn(`${event} hook [${hook.command}] ${problem}`);
    // claude announces it after the `Stop hook feedback` message the block adds: held until that is written.
    if (event === 'Stop' && finished.code === 2) afterFeedback = { type: 'system', subtype: 'notification', key: 'stop-hook-error', text: 'stop hook problem · ctrl+o to see', priority: 'immediate', uuid: randomUUID(), session_id: options.sessionId };
    return output;
  };
  return {
    registry,
    written(message) {
      if (afterFeedback === undefined || (message.type !== 'user' && message.type !== 'result')) return;
      const held = afterFeedback;
      afterFeedback = undefined;
      options.write(held);
    },
    answer(request, signal) {
      const hook = typeof request.callback_id === 'string' ? byId.get(request.callback_id) : undefined;
      return hook && request.subtype === 'hook_callback' ? run(hook, request, signal) : undefined;
    },
  };
}

/** The command hooks first, then the program's callbacks, per event (claude runs both). */
export function withCommandHooks(commands: HookRegistry, program: HookRegistry | undefined): HookRegistry {
  const merged: HookRegistry = { ...commands };
  for (const [event, matchers] of Object.entries(program ?? {})) merged[event] = [...(merged[event] ?? []), ...(matchers ?? [])];
  return merged;
}
