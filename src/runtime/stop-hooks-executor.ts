/**
 * The stop hooks' executor: the hooks in order, one answer (`stop_hooks_result`) for all of them.
 *
 * Invariant: an abort never leaves the reducer waiting; the answer then counts only the hooks that had answered.
 */
import type { EffectOf } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import { onAbort } from '../tools/abort-listeners.ts';
import type { StopHookResult } from '../data/deps.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ExecutorEnv } from './executor-kinds.ts';
import type { MaybePromise } from './maybe-promise.ts';

/**
 * The stop hooks, in order. An abort stops waiting for the hook in progress; the answer then reports how many hooks
 * had answered (`hookCount`), which decides between "silent" and "interrupted" (docs/loop.md §4.9.4). With no hooks the
 * answer is ready at once.
 */
export function executeStopHooks(effect: EffectOf<'run_stop_hooks'>, env: ExecutorEnv): MaybePromise<LoopEvent | null> {
  const hooks = env.options.stopHooks ?? [];
  if (hooks.length === 0) return stopHooksResult([]);
  return (async () => {
    const results: StopHookResult[] = [];
    for (const hook of hooks) {
      if (env.signal.aborted) break;
      try {
        const answer = await untilAborted(Promise.resolve(hook({ messages: effect.messages, stopHookActive: effect.stopHookActive, signal: env.signal })), env.signal);
        if (answer === ABORTED) break;
        results.push(answer);
      } catch (error) {
        if (env.signal.aborted) break;
        results.push({ blockingError: `stop hook failed: ${messageOf(error)}` });
      }
    }
    return stopHooksResult(results);
  })();
}

function stopHooksResult(results: StopHookResult[]): LoopEvent {
  const prevent = results.find((r) => r.preventContinuation);
  return {
    type: 'stop_hooks_result',
    blockingErrors: results.flatMap((r) => (r.blockingError ? [r.blockingError] : [])),
    preventContinuation: prevent !== undefined,
    ...(prevent?.stopReason !== undefined ? { stopReason: prevent.stopReason } : {}),
    hookCount: results.length,
  };
}

const ABORTED = Symbol('aborted');

/** The promise's value, or `ABORTED` as soon as the signal aborts (the promise itself is left to settle). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const detach = onAbort(signal, () => resolve(ABORTED));
    promise.then(
      (value) => {
        detach();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        reject(error);
      },
    );
  });
}
