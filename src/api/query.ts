/**
 * The `query()` the package root exports: the engine's `query()` (`src/effects/query.ts`) plus the options that
 * need a layer above the interpreter, such as `record` (session logs live in `src/replay`). It sits at the top so
 * that the interpreter never imports upward.
 *
 * @example
 * const run = query({ prompt: 'Fix the bug', tools, record: '.turnloop/sessions/fix.jsonl' });
 * for await (const item of run) if (item.type === 'assistant') console.log(item.message.content);
 */
import type { QueryItem } from '../messages/types.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import { query as engineQuery, runQuery as engineRunQuery } from '../effects/query.ts';
import type { QueryOptions as EngineQueryOptions, RunObserverFactory } from '../effects/query-options.ts';
import type { RedactOptions } from '../replay/redact.ts';
import { recordTo, type RecordTarget } from '../replay/session-recorder.ts';

export interface QueryOptions extends EngineQueryOptions {
  /**
   * Records the run as a session log (JSONL, see docs/replay.md): a file path or a writable, written append-only
   * line by line; secrets are redacted (add patterns with `redact`).
   */
  record?: RecordTarget | { target: RecordTarget; redact?: RedactOptions; fsync?: boolean; onError?: (error: Error) => void };
}

/** The engine's options for `options`: the extras become run observers. */
export function engineOptionsOf(options: QueryOptions): EngineQueryOptions {
  const { record, ...engine } = options;
  const observers: RunObserverFactory[] = [...(engine.observers ?? [])];
  if (record !== undefined) {
    const spec = typeof record === 'object' && 'target' in record ? record : { target: record };
    const { target, ...recording } = spec;
    observers.push(recordTo(target, recording));
  }
  return { ...engine, observers };
}

export function query(options: QueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  return engineQuery(engineOptionsOf(options));
}

/** Runs `query()` to its end and collects what it yielded. */
export function runQuery(options: QueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  return engineRunQuery(engineOptionsOf(options));
}
