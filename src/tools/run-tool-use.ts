/**
 * The pipeline of one tool call (docs/loop.md §7.2): lookup → already aborted? → schema → `validateInput` → pre-tool
 * hooks → permission → `call` (with progress) → post-tool hooks.
 *
 * Invariants:
 * - the promise always resolves, never rejects, with exactly ONE `tool_result` event for `toolUse.id`
 *   (a throwing tool, hook or permission callback becomes an error result);
 * - a cancellation (the scope's signal aborts at any stage) or a timeout resolves at once with an error result
 *   saying why; the abandoned work keeps running detached and its outcome is ignored;
 * - `status` tells executors whether the result is a success, an error (shell-like errors cancel siblings) or a
 *   cancellation; a timeout counts as an error.
 */
import type { ChildRunRequest } from './child-runs.ts';
import type { Message, ToolUseBlock } from '../messages/types.ts';
import type { ToolResultEvent } from '../data/deps.ts';
import { LazyAbortController } from './lazy-abort-controller.ts';
import { alwaysAllowed, alwaysValid } from './default-answers.ts';
import type { PermissionBehavior, Tool, ToolCallResult, ToolCallUpdate, ToolContext, ToolResultContent, ValidationResult } from './define-tool.ts';
import { cancellationText, notStartedText, ToolCancellation, timeoutCancellation } from './cancellation.ts';
import { decidePermission, type PermissionOutcome } from './permission.ts';
import type { ToolCallDeps } from './call-deps.ts';
import { noPostHookOutcome, noPreHookOutcome, runPostToolHooks, runPreToolHooks } from './tool-hooks.ts';
import {
  emptyResultText,
  errorResultEvent,
  errorText,
  invalidInputText,
  isEmptyContent,
  toolResultEvent,
  unknownToolText,
} from './tool-result-message.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { CancellationRace } from './cancellation-race.ts';

/** `alwaysValid`'s answer, settled already. */
const VALID: Promise<ValidationResult> = Promise.resolve({ ok: true });
/** What `decidePermission` answers for a call `needsDecision` lets through, settled already. */
const ALLOWED: Promise<PermissionOutcome> = Promise.resolve({ allowed: true });

export type ToolUseStatus = 'success' | 'error' | 'cancelled';

export interface ToolUseOutcome {
  event: ToolResultEvent;
  status: ToolUseStatus;
}

export interface ToolUseScope {
  /** The signal that cancels this call (the executors use `runOwnedToolUse` with a per-call controller instead). */
  signal: AbortSignal;
  /** The tool-use context the call sees. */
  context: Readonly<Record<string, unknown>>;
}

interface PipelineResult {
  content: ToolResultContent;
  isError: boolean;
  extra: Message[];
  preventContinuation: boolean;
  stopReason?: string;
  contextPatch?: Record<string, unknown>;
}

/** Runs one tool call and reports its single result. */
export async function runToolUse(toolUse: ToolUseBlock, deps: ToolCallDeps, scope: ToolUseScope): Promise<ToolResultEvent> {
  return (await runToolUseWithStatus(toolUse, deps, scope)).event;
}

/** Like `runToolUse`, and says how the call ended. */
export async function runToolUseWithStatus(
  toolUse: ToolUseBlock,
  deps: ToolCallDeps,
  scope: ToolUseScope,
): Promise<ToolUseOutcome> {
  const tool = deps.registry.find(toolUse.name);
  if (!tool || scope.signal.aborted) return refusal(toolUse, deps, tool, scope.signal);
  // The call's own controller follows the scope's signal; a timeout aborts only this call.
  const own = new LazyAbortController();
  const forward = () => own.abort(scope.signal.reason);
  scope.signal.addEventListener('abort', forward, { once: true });
  try {
    return await runOnController(tool, toolUse, deps, own, scope.context);
  } finally {
    scope.signal.removeEventListener('abort', forward);
  }
}

/**
 * Like `runToolUseWithStatus`, for an executor that made `controller` for this call alone: the tool gets its
 * signal, and a timeout aborts it, so the call needs no controller of its own. `tool`: the registry's answer for
 * `toolUse.name`, when the caller looked it up already.
 */
export function runOwnedToolUse(
  toolUse: ToolUseBlock,
  deps: ToolCallDeps,
  controller: LazyAbortController,
  context: Readonly<Record<string, unknown>>,
  tool: Tool | undefined = deps.registry.find(toolUse.name),
): Promise<ToolUseOutcome> {
  if (!tool || controller.aborted) return Promise.resolve(refusal(toolUse, deps, tool, controller));
  return runOnController(tool, toolUse, deps, controller, context);
}

/** The result of a call that never starts: its tool is unknown, or it was cancelled before it began. */
function refusal(toolUse: ToolUseBlock, deps: ToolCallDeps, tool: Tool | undefined, aborted: { reason: unknown }): ToolUseOutcome {
  if (!tool) {
    const known = deps.registry.tools.map((t) => t.name);
    return { event: errorResultEvent(deps.newId, toolUse, unknownToolText(toolUse.name, known)), status: 'error' };
  }
  // Never started: say so, the model must not believe the call had any effect.
  return { event: errorResultEvent(deps.newId, toolUse, notStartedText(cancellationText(aborted))), status: 'cancelled' };
}

/** Runs the pipeline with `own.signal` as the tool's signal; a cancellation or timeout of `own` ends it at once. */
async function runOnController(
  tool: Tool,
  toolUse: ToolUseBlock,
  deps: ToolCallDeps,
  own: LazyAbortController,
  context: Readonly<Record<string, unknown>>,
): Promise<ToolUseOutcome> {
  // The timer's controller exists only when a timeout is set (the default is none): aborting a controller
  // dispatches an event, which costs more than the rest of a trivial call.
  let stopTimer: (() => void) | undefined;
  // Which ends first, the pipeline or a cancellation (see `firstOf`): the cancellation is seen from here on.
  const race = new CancellationRace<PipelineResult>();
  own.onAbort(race.cancel);
  const startTimer = () => {
    const ms = deps.timeoutMs ?? 0;
    if (ms <= 0) return;
    const timer = new AbortController();
    // A string reason: a bare abort() would build a DOMException with a stack trace on every call.
    stopTimer = () => timer.abort('settled');
    const sleep = deps.clock?.sleep ?? realSleep;
    sleep(ms, timer.signal).then(
      () => timer.signal.aborted || own.abort(timeoutCancellation(tool.name, ms)),
      () => undefined,
    );
  };
  const ctx: ToolContext = {
    toolUseId: toolUse.id,
    idempotencyKey: toolUse.id,
    // A getter, so that the AbortSignal is built only for a tool that looks at it.
    get signal() {
      return own.signal;
    },
    context,
  };
  // Assigned, not spread into the literal (the same members in the same order): a spread sends V8 down its generic path.
  const runChild = deps.runChild;
  if (runChild) ctx.runChild = (request: ChildRunRequest) => runChild(request, { toolUseId: toolUse.id, signal: own.signal });
  const work = runPipeline(tool, toolUse, deps, ctx, startTimer);
  try {
    const winner = await race.firstOf(work);
    if (winner === 'cancelled') {
      const reason: unknown = own.reason;
      const timedOut = reason instanceof ToolCancellation && reason.kind === 'timeout';
      return { event: errorResultEvent(deps.newId, toolUse, cancellationText(own)), status: timedOut ? 'error' : 'cancelled' };
    }
    return { event: toEvent(deps, tool, toolUse.id, winner), status: winner.isError ? 'error' : 'success' };
  } finally {
    stopTimer?.();
  }
}

function toEvent(deps: ToolCallDeps, tool: Tool, toolUseId: string, r: PipelineResult): ToolResultEvent {
  const extra = [...r.extra];
  if (r.preventContinuation) {
    const message = r.stopReason ?? `The loop was stopped after the ${tool.name} call.`;
    extra.push({ type: 'attachment', uuid: deps.newId(), attachment: { type: 'hook_stopped_continuation', message, toolUseId } });
  }
  const content = !r.isError && isEmptyContent(r.content) ? emptyResultText(tool.name) : r.content;
  return toolResultEvent(deps.newId, toolUseId, {
    content,
    isError: r.isError,
    extra,
    preventContinuation: r.preventContinuation,
    contextPatch: r.contextPatch,
  });
}

/** Never rejects: every failure becomes an error result. */
async function runPipeline(
  tool: Tool,
  toolUse: ToolUseBlock,
  deps: ToolCallDeps,
  ctx: ToolContext,
  startTimer: () => void,
): Promise<PipelineResult> {
  // The list made before the literal: a literal holding a literal is built through the runtime (docs/architecture.md, "Literals of one level").
  const extra: Message[] = [];
  const out: PipelineResult = { content: '', isError: false, extra, preventContinuation: false };
  const fail = (text: string): PipelineResult => ({ ...out, content: text, isError: true });
  let stage = 'input validation';
  // When the tool was called (the post-tool hooks' `duration_ms`, also for a tool that threw).
  let started: number | undefined;
  // Read once, so the post-tool hooks that run are the ones the call was timed for.
  const postHooks = deps.postToolHooks ?? [];
  let input: unknown = toolUse.input;
  try {
    const parsed = tool.inputSchema.safeParse(toolUse.input);
    if (!parsed.success) return fail(invalidInputText(tool.name, parsed.error));
    input = parsed.data;
    // `defineTool`'s default is not called: its answer is known. Still awaited, as the call would be (see `needsDecision`).
    const valid = tool.validateInput === alwaysValid ? await VALID : await tool.validateInput(input, ctx);
    if (!valid.ok) return fail(`Error: ${valid.message}`);

    stage = 'a pre-tool hook';
    // Most runs have no hooks: skip building their input and awaiting an empty fold (on every call).
    const preHooks = deps.preToolHooks ?? [];
    const pre = preHooks.length === 0
      ? noPreHookOutcome(input)
      : await runPreToolHooks(preHooks, { ...ctx, toolName: tool.name, input, newId: deps.newId });
    if (pre.messages.length > 0) out.extra.push(...pre.messages);
    out.preventContinuation = pre.preventContinuation;
    out.stopReason = pre.stopReason;
    if (pre.stop) return fail(`Error: a pre-tool hook stopped this call${pre.stopReason ? `: ${pre.stopReason}` : '.'}`);
    if (pre.inputChanged) {
      const reparsed = tool.inputSchema.safeParse(pre.input);
      if (!reparsed.success) return fail(invalidInputText(tool.name, reparsed.error));
      input = reparsed.data;
    }

    stage = 'the permission check';
    // One literal of a fixed shape (a conditional spread in it sent V8 down its generic object-building path).
    // Without a decision, its known answer, awaited twice: two hops, as `decidePermission`'s (see `needsDecision`).
    const permission = !needsDecision(tool, pre.decision, deps) ? (await ALLOWED, await ALLOWED) : await decidePermission({
      tool,
      input,
      ctx,
      hookDecision: pre.decision,
      hookReason: pre.reason,
      hookReasonIsText: pre.reasonIsText === true,
      canUseTool: deps.canUseTool,
    });
    if (!permission.allowed) return fail(permission.message);
    if (permission.updatedInput !== undefined) {
      const reparsed = tool.inputSchema.safeParse(permission.updatedInput);
      if (!reparsed.success) return fail(invalidInputText(tool.name, reparsed.error));
      input = reparsed.data;
    }

    stage = 'call';
    startTimer();
    // Only for the post-tool hooks' `duration_ms` (never part of the loop's state or messages): not read without hooks.
    if (postHooks.length > 0) started = performance.now();
    // Awaited also when the tool answered at once, as the call's promise was: the same hops (see `needsDecision`).
    const result = await invokeTool(tool, input, ctx, out.extra, deps);
    const durationMs = started === undefined ? 0 : Math.round(performance.now() - started);
    out.content = result.content;
    out.isError = result.isError === true;
    out.contextPatch = result.contextModifier;
    if (result.preventContinuation) out.preventContinuation = true;

    stage = 'a post-tool hook';
    const post = postHooks.length === 0
      ? noPostHookOutcome()
      : await runPostToolHooks(postHooks, { ...ctx, toolName: tool.name, input, result, newId: deps.newId, durationMs });
    if (post.messages.length > 0) out.extra.push(...post.messages);
    if (post.preventContinuation) out.preventContinuation = true;
    out.stopReason ??= post.stopReason;
    return out;
  } catch (error) {
    if (stage === 'a post-tool hook') {
      out.extra.push(warning(deps, `A post-tool hook of ${tool.name} failed: ${errorText(error)}`));
      return out;
    }
    if (stage !== 'call') return fail(`Error: ${stage} failed: ${errorText(error)}`);
    // A tool that threw: the post-tool hooks still hear of it, with its error result (Claude Code's
    // PostToolUseFailure hooks); what they add goes with the result, a hook that fails is a warning.
    const failed = fail(`Error: ${errorText(error)}`);
    if (postHooks.length === 0 || ctx.signal.aborted) return failed;
    try {
      const durationMs = started === undefined ? undefined : Math.round(performance.now() - started);
      const post = await runPostToolHooks(postHooks, { ...ctx, toolName: tool.name, input, result: { content: failed.content, isError: true }, newId: deps.newId, ...(durationMs !== undefined ? { durationMs } : {}) });
      failed.extra.push(...post.messages);
      if (post.preventContinuation) failed.preventContinuation = true;
      failed.stopReason ??= post.stopReason;
    } catch (hookError) {
      failed.extra.push(warning(deps, `A post-tool hook of ${tool.name} failed: ${errorText(hookError)}`));
    }
    return failed;
  }
}

/**
 * The tool's result: at once when it answered at once (most do), without an async function's frame and promise; a
 * failure always as a rejected promise, as the async function this was gave it (the caller awaits either).
 */
function invokeTool(tool: Tool, input: unknown, ctx: ToolContext, extra: Message[], deps: ToolCallDeps): ToolCallResult | Promise<ToolCallResult> {
  try {
    const returned = tool.call(input, ctx);
    if (isAsyncIterable(returned)) return streamedResult(tool, returned as AsyncIterable<ToolCallUpdate>, ctx, extra, deps);
    if (isThenable(returned)) return Promise.resolve(returned).then((result) => checkedResult(tool, result));
    return checkedResult(tool, returned as ToolCallResult);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The final result of a tool that streams its progress. */
async function streamedResult(tool: Tool, updates: AsyncIterable<ToolCallUpdate>, ctx: ToolContext, extra: Message[], deps: ToolCallDeps): Promise<ToolCallResult> {
  let result: ToolCallResult | undefined;
  for await (const update of updates) {
    if (update.type === 'progress') extra.push(progress(deps, tool.name, ctx.toolUseId, update));
    else result = update.result;
    if (ctx.signal.aborted) break; // cancelled: the result no longer matters, let the tool's generator close
  }
  return checkedResult(tool, result);
}

function checkedResult(tool: Tool, result: ToolCallResult | undefined): ToolCallResult {
  if (!result || typeof result !== 'object') throw new TurnloopError('TOOL_NO_RESULT', `${tool.name} ended without a result`);
  return result;
}

/**
 * Whether the permission needs deciding: not for a tool with `defineTool`'s default `checkPermissions`, no pre-tool
 * hook's decision and no `canUseTool` (the call is allowed, as `decidePermission` would say). The hops are kept: how
 * many a call takes decides whether its result reaches the queue before or after the model's next event, an order
 * the session log records (a model waiting 6 hops between its tool_use and model_done saw them swapped when these
 * two hops were left out: `test/unit/tools/default-answers.test.ts`).
 */
function needsDecision(tool: Tool, hookDecision: PermissionBehavior | undefined, deps: ToolCallDeps): boolean {
  return tool.checkPermissions !== alwaysAllowed || hookDecision !== undefined || deps.canUseTool !== undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function progress(deps: ToolCallDeps, toolName: string, toolUseId: string, update: Extract<ToolCallUpdate, { type: 'progress' }>): Message {
  return {
    type: 'system',
    uuid: deps.newId(),
    subtype: 'info',
    content: update.message,
    level: 'info',
    data: { kind: 'tool_progress', toolName, toolUseId, ...update.data },
  };
}

function warning(deps: ToolCallDeps, content: string): Message {
  return { type: 'system', uuid: deps.newId(), subtype: 'warning', content, level: 'warning' };
}

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const handle = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => clearTimeout(handle), { once: true });
  });
}
