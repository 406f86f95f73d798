/**
 * `query()`, the one the package root exports: the engine (`runLoop()`, `src/drivers/run-loop.ts`) plus the options that
 * need a layer above the interpreter, such as `record` (session logs live in `src/replay`) and `telemetry`
 * (OpenTelemetry spans, `src/otel`, imported only when asked for). It sits at the top so that the interpreter never
 * imports upward. The options are checked and extended once, by the boundary `durableQuery()` shares
 * (`./run-options.ts`).
 *
 * @example
 * const run = query({ prompt: 'Fix the bug', tools, record: '.turnloop/sessions/fix.jsonl' });
 * for await (const item of run) if (item.type === 'assistant') console.log(item.message.content);
 */
import type { QueryItem } from '../messages/types.ts';
import type { Terminal } from '../data/outcomes.ts';
import { runLoop, runLoopToEnd } from '../drivers/run-loop.ts';
import { engineOptionsOf, type QueryOptions } from './run-options.ts';

export type { QueryOptions } from './run-options.ts';

export async function* query(options: QueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  return yield* runLoop(await engineOptionsOf(options, 'query()'));
}

/** Runs `query()` to its end and collects what it yielded. */
export async function runQuery(options: QueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return runLoopToEnd(await engineOptionsOf(options, 'query()'));
}
