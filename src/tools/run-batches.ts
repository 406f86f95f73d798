/**
 * Non-streaming tool execution (docs/loop.md §7.3): the batches of a `run_tools` effect, in order.
 *
 * Invariants:
 * - every tool_use of every batch gets exactly one `tool_result` event;
 * - an unsafe batch's calls run one at a time, each alone: nothing else runs while it runs;
 * - a concurrent batch runs at most `maxConcurrency` calls at once (default 10), started in call order;
 *   its results are yielded in COMPLETION order (a fast result is not held back by a slow one);
 * - context patches: a serial call's patch applies as soon as it finishes; the patches of a concurrent batch apply
 *   after the whole batch, in call order. Each call sees `context.current` as it was when the call started.
 *   (The events still carry their own `contextPatch`; consumers that fold events see concurrent patches in
 *   completion order, which only matters if two calls of one batch set the same key.)
 * - an error cancels nothing, a shell-like tool's included: the original's non-streaming path (runTools) has no
 *   sibling cancellation, only its streaming executor does (docs/loop.md §7.5, `streaming-executor.ts`); a loop
 *   abort cancels per `interruptBehavior`.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { ToolBatch } from '../data/effects.ts';
import type { ToolResultEvent } from '../data/deps.ts';
import { CancelGroup } from './cancellation.ts';
import { startLinkedCall, type LinkedCallOutcome } from './linked-call.ts';
import { applyContextPatch, createToolUseContextRef, type ToolCallDeps, type ToolUseContextRef } from './call-deps.ts';

export const DEFAULT_MAX_TOOL_CONCURRENCY = 10;

export interface RunToolBatchesOptions {
  /** The loop's abort signal; its reason `'interrupt'` spares `block` tools. */
  signal: AbortSignal;
  /** The running tool-use context; updated in place (see the invariants). */
  context?: ToolUseContextRef;
  maxConcurrency?: number;
}

/**
 * @example
 * for await (const event of runToolBatches(effect.batches, deps, { signal, context })) send(event);
 */
export async function* runToolBatches(
  batches: readonly ToolBatch[],
  deps: ToolCallDeps,
  options: RunToolBatchesOptions,
): AsyncGenerator<ToolResultEvent, void, undefined> {
  const context = options.context ?? createToolUseContextRef();
  const cap = Math.max(1, Math.floor(options.maxConcurrency ?? DEFAULT_MAX_TOOL_CONCURRENCY));
  // No call ever cancels this group: the batches answer each call on its own (see the invariants).
  const unlinked = new CancelGroup();
  const run = (toolUse: ToolUseBlock) => startLinkedCall(toolUse, deps, options.signal, unlinked, context.current).done;

  for (const batch of batches) {
    if (!batch.concurrent) {
      for (const toolUse of batch.toolUses) {
        const outcome = await run(toolUse);
        applyContextPatch(context, outcome.event.contextPatch);
        yield outcome.event;
      }
      continue;
    }
    const outcomes: LinkedCallOutcome[] = [];
    for await (const [index, outcome] of runPool(batch.toolUses, cap, run)) {
      outcomes[index] = outcome;
      yield outcome.event;
    }
    for (const outcome of outcomes) applyContextPatch(context, outcome.event.contextPatch);
  }
}

/** Runs `work` over `items` with at most `cap` in flight, yielding `[index, result]` as each finishes. */
async function* runPool<T, R>(
  items: readonly T[],
  cap: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<[number, R], void, undefined> {
  const finished: Array<[number, R]> = [];
  let wake: (() => void) | null = null;
  let next = 0;
  let running = 0;
  const launch = () => {
    while (running < cap && next < items.length) {
      const index = next++;
      running++;
      void work(items[index]).then((result) => {
        running--;
        finished.push([index, result]);
        launch();
        wake?.();
      });
    }
  };
  launch();
  for (let yielded = 0; yielded < items.length; ) {
    if (finished.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    while (finished.length > 0) {
      yield finished.shift()!;
      yielded++;
    }
  }
}
