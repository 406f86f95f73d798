/**
 * `runLoop()`: the engine behind the public `query()` (`src/api/query.ts`). It yields every emitted message, stream
 * event and `request_start`, and returns the Terminal. turnloop's own layers (resume, simulation, child runs, forks)
 * call it directly with `RunLoopOptions`, which add internal plumbing to the public options.
 *
 * A thin driver: the run is resolved by `resolveRun()` (`./resolve-run.ts`), which the durable driver shares, and
 * run by the run core (`./run-core.ts`) on the in-memory scheduler (`Interpreter`).
 *
 * Closing the generator early (`return()`) or aborting `options.signal` cancels in-flight work; the run is then
 * driven to its terminal without yielding, so every tool_use still gets its result in the recorded history.
 *
 * @example
 * const run = runLoop({ prompt: 'Fix the bug', tools, config: { model: 'claude-sonnet-4-6' } });
 * for await (const item of run) if (item.type === 'assistant') console.log(item.message.content);
 */
import type { QueryItem } from '../messages/types.ts';
import type { Terminal } from '../data/outcomes.ts';
import { Interpreter } from './interpreter.ts';
import type { RunLoopOptions } from '../runtime/query-options.ts';
import { resolveRun, runParamsOf, watchRun } from './resolve-run.ts';
import { driveRun, driveRunToEnd } from './run-core.ts';

export function runLoop(options: RunLoopOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  return driveRun(() => interpreterOf(options));
}

/** Runs `runLoop()` to its end and collects what it yielded (the same run, without a generator in between). */
export function runLoopToEnd(options: RunLoopOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return driveRunToEnd(() => interpreterOf(options));
}

function interpreterOf(options: RunLoopOptions): Interpreter {
  const resolved = resolveRun(options, runLoopToEnd);
  const params = runParamsOf(options, resolved);
  return new Interpreter(options, resolved, watchRun(options, resolved.config, params), params);
}

/** Drains a run's generator (the loop's or a driver's): the items it yielded and the terminal it returned. */
export async function collectToEnd(generator: AsyncGenerator<QueryItem, Terminal>): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  const items: QueryItem[] = [];
  while (true) {
    const next = await generator.next();
    if (next.done) return { items, terminal: next.value };
    items.push(next.value);
  }
}
