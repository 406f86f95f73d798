/**
 * The streaming tool executor (docs/loop.md §7.4, §7.5): runs tools while the model is still streaming.
 *
 * Invariants:
 * - start rule: a tool starts when nothing runs, or when it and everything running are concurrency-safe (and
 *   fewer than `maxConcurrency` run); the queue is scanned in order and the scan stops at the first unsafe tool
 *   that cannot start, so nothing overtakes an unsafe tool;
 * - emission: `takeCompleted()` returns finished results in call order, passing over still-running SAFE tools only;
 *   `finish()` yields the rest the same way until every enqueued tool is reported;
 * - every enqueued tool_use is reported exactly once: by `takeCompleted`/`finish`, or in the array `discard`
 *   returns. Cancelled tools get a result that says why;
 * - cancellation: a shell-like error cancels every other unfinished tool, including ones enqueued later; a loop
 *   abort with reason `'interrupt'` cancels only `cancel` tools (queued `block` tools still run), any other reason
 *   cancels all; `discard` aborts everything and ends the executor;
 * - context patches: an unsafe tool's patch applies when it finishes; safe tools' patches apply, in call order,
 *   once no safe tool runs any more. A tool sees `context.current` as it was when it started.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { LazyAbortController } from './lazy-abort-controller.ts';
import type { ToolResultEvent } from '../data/deps.ts';
import type { ToolResultSink } from '../data/tool-runtime.ts';
import { CancelGroup, discardCancellation, loopAbortCancels, loopAbortReason, siblingErrorCancellation, USER_ABORT_TEXT } from './cancellation.ts';
import type { InterruptBehavior } from './define-tool.ts';
import { interruptBehaviorOf, startLinkedCall, type LinkedCallOutcome } from './linked-call.ts';
import { DEFAULT_MAX_TOOL_CONCURRENCY } from './run-batches.ts';
import { applyContextPatch, createToolUseContextRef, type ToolCallDeps, type ToolUseContextRef } from './call-deps.ts';
import { errorResultEvent } from './tool-result-message.ts';
import { onAbort } from './abort-listeners.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { keepLatest } from './kept-shapes.ts';

export interface StreamingToolExecutorOptions {
  deps: ToolCallDeps;
  /** The loop's abort signal. */
  signal: AbortSignal;
  context?: ToolUseContextRef;
  maxConcurrency?: number;
  /** Called whenever a tool finishes (or is cancelled): `takeCompleted()` may have something new. */
  onResultReady?: () => void;
}

export class DuplicateToolUseError extends TurnloopError {
  constructor(readonly toolUseId: string) {
    super('DUPLICATE_TOOL_USE', `tool_use ${toolUseId} was enqueued twice`);
    this.name = 'DuplicateToolUseError';
  }
}

type TrackedState = 'queued' | 'running' | 'done' | 'reported';

interface TrackedTool {
  index: number;
  toolUse: ToolUseBlock;
  safe: boolean;
  behavior: InterruptBehavior;
  state: TrackedState;
  controller?: LazyAbortController;
  event?: ToolResultEvent;
}

export class StreamingToolExecutor {
  readonly context: ToolUseContextRef;
  readonly #options: StreamingToolExecutorOptions;
  readonly #cap: number;
  readonly #tools: TrackedTool[] = [];
  readonly #siblings = new CancelGroup();
  readonly #pendingSafePatches = new Map<number, Record<string, unknown>>();
  #waiters: Array<() => void> = [];
  readonly #listeners: Array<() => void> = [];
  #discarded = false;
  readonly #detachLoopAbort: () => void;

  constructor(options: StreamingToolExecutorOptions) {
    this.#options = options;
    this.context = options.context ?? createToolUseContextRef();
    this.#cap = Math.max(1, Math.floor(options.maxConcurrency ?? DEFAULT_MAX_TOOL_CONCURRENCY));
    this.#detachLoopAbort = onAbort(options.signal, this.#onLoopAbort);
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see kept-shapes.ts).
    keepLatest(StreamingToolExecutor, this);
  }

  /** Hands over one tool_use as soon as the model finished its block. Ignored after `discard`. */
  enqueue(toolUse: ToolUseBlock, concurrencySafe: boolean): void {
    if (this.#discarded) return;
    // Plain loops on this path (here and below), no callbacks: it runs on every turn, mostly before V8 optimizes it.
    for (const tool of this.#tools) if (tool.toolUse.id === toolUse.id) throw new DuplicateToolUseError(toolUse.id);
    const behavior = interruptBehaviorOf(this.#options.deps.registry.find(toolUse.name));
    this.#tools.push({ index: this.#tools.length, toolUse, safe: concurrencySafe, behavior, state: 'queued' });
    this.#processQueue();
  }

  /** Finished results in call order, passing over running safe tools only. Each result is returned once. */
  takeCompleted(): ToolResultEvent[] {
    const out: ToolResultEvent[] = [];
    for (const tool of this.#tools) {
      if (tool.state === 'reported') continue;
      if (tool.state === 'done') {
        tool.state = 'reported';
        out.push(tool.event!);
      } else if (!(tool.state === 'running' && tool.safe)) break;
    }
    return out;
  }

  /** Yields every remaining result in order, waiting for running tools. Ends at once after `discard`. */
  async *finish(): AsyncGenerator<ToolResultEvent, void, undefined> {
    try {
      for (;;) {
        // Wait only right after a look that found nothing, in the same synchronous stretch: a tool that finishes
        // while this generator is suspended (any yield, even `yield*` over an empty array, takes microtask hops)
        // wakes no waiter, so it must be found by the next look, not waited for forever.
        const ready = this.takeCompleted();
        if (ready.length > 0) {
          for (const event of ready) yield event;
          continue;
        }
        if (this.#finished()) return;
        await this.#nextReady();
      }
    } finally {
      this.#detachLoopAbort();
    }
  }

  /**
   * `finish()`'s results handed to `sink.put` one by one, each awaited before the next look (the same results in the
   * same order as a consumer of `finish()` that awaits each put), without the generator's promises per result.
   */
  async finishInto(sink: ToolResultSink): Promise<void> {
    try {
      for (;;) {
        // As in `finish()`: wait only right after a look that found nothing.
        const ready = this.takeCompleted();
        if (ready.length > 0) {
          for (const event of ready) await sink.put(event);
          continue;
        }
        if (this.#finished()) return;
        await this.#nextReady();
      }
    } finally {
      this.#detachLoopAbort();
    }
  }

  /** Nothing more to report: discarded, or every tool reported. */
  #finished(): boolean {
    if (this.#discarded) return true;
    for (const tool of this.#tools) if (tool.state !== 'reported') return false;
    return true;
  }

  /** Settles when a tool finishes or is cancelled (or the executor is discarded). */
  #nextReady(): Promise<void> {
    return new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Throws everything away (streaming fallback): running tools are aborted, nothing more is reported through
   * `takeCompleted`/`finish`. Returns one synthetic error result per tool_use not yet reported, for a caller that
   * must keep the history paired; callers that drop the tool_uses themselves ignore it.
   */
  discard(reason: string): ToolResultEvent[] {
    if (this.#discarded) return [];
    this.#discarded = true;
    this.#detachLoopAbort();
    const cancellation = discardCancellation(reason);
    const results: ToolResultEvent[] = [];
    for (const tool of this.#tools) {
      if (tool.state === 'reported') continue;
      if (tool.state === 'running') tool.controller?.abort(cancellation);
      tool.state = 'reported';
      results.push(errorResultEvent(this.#options.deps.newId, tool.toolUse, cancellation.message));
    }
    this.#notify();
    return results;
  }

  /** Adds a listener called whenever a tool finishes or is cancelled (like the `onResultReady` option). */
  onReady(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Tools enqueued but not yet reported. */
  get pendingCount(): number {
    return this.#tools.filter((t) => t.state !== 'reported').length;
  }

  readonly #onLoopAbort = (): void => {
    this.#processQueue();
  };

  #processQueue(): void {
    if (this.#discarded) return;
    this.#cancelQueued();
    for (const tool of this.#tools) {
      if (tool.state !== 'queued') continue;
      if (this.#canStart(tool)) this.#start(tool);
      else if (!tool.safe) break;
    }
  }

  /** Queued tools that a sibling error or a loop abort has cancelled get their result now, without running. */
  #cancelQueued(): void {
    const loopSignal = this.#options.signal;
    let changed = false;
    for (const tool of this.#tools) {
      if (tool.state !== 'queued') continue;
      let text: string | undefined;
      if (this.#siblings.reason) text = this.#siblings.reason.message;
      else if (loopSignal.aborted && loopAbortCancels(loopAbortReason(loopSignal), tool.behavior)) text = USER_ABORT_TEXT;
      if (text === undefined) continue;
      tool.state = 'done';
      tool.event = errorResultEvent(this.#options.deps.newId, tool.toolUse, text);
      changed = true;
    }
    if (changed) this.#notify();
  }

  #canStart(tool: TrackedTool): boolean {
    let running = 0;
    let allSafe = true;
    for (const t of this.#tools) {
      if (t.state !== 'running') continue;
      running += 1;
      if (!t.safe) allSafe = false;
    }
    if (running === 0) return true;
    return tool.safe && running < this.#cap && allSafe;
  }

  #start(tool: TrackedTool): void {
    tool.state = 'running';
    const { deps, signal } = this.#options;
    const call = startLinkedCall(tool.toolUse, deps, signal, this.#siblings, this.context.current);
    tool.controller = call.controller;
    void call.done.then((outcome) => this.#complete(tool, outcome));
  }

  #complete(tool: TrackedTool, outcome: LinkedCallOutcome): void {
    if (this.#discarded || tool.state !== 'running') return;
    tool.state = 'done';
    tool.event = outcome.event;
    if (outcome.cancelsSiblings && !this.#siblings.reason) {
      this.#siblings.cancel(siblingErrorCancellation(tool.toolUse.name, tool.toolUse.id));
    }
    this.#applyPatch(tool, outcome.event.contextPatch);
    this.#processQueue();
    this.#notify();
  }

  #applyPatch(tool: TrackedTool, patch: Record<string, unknown> | undefined): void {
    if (!tool.safe) applyContextPatch(this.context, patch);
    else if (patch) this.#pendingSafePatches.set(tool.index, patch);
    for (const t of this.#tools) if (t.state === 'running' && t.safe) return;
    if (this.#pendingSafePatches.size === 0) return;
    for (const index of [...this.#pendingSafePatches.keys()].sort((a, b) => a - b)) {
      applyContextPatch(this.context, this.#pendingSafePatches.get(index));
    }
    this.#pendingSafePatches.clear();
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
    this.#call(this.#options.onResultReady);
    // By index, up to the length it had before: as the copy it once iterated, a listener added meanwhile waits.
    const listeners = this.#listeners;
    for (let i = 0, n = listeners.length; i < n; i++) this.#call(listeners[i]);
  }

  #call(listener: (() => void) | undefined): void {
    try {
      listener?.();
    } catch {
      // A failing listener must not break the executor; the results stay available to `takeCompleted`.
    }
  }
}
