/**
 * The `query()` the package root exports: the engine's `query()` (`src/effects/query.ts`) plus the options that
 * need a layer above the interpreter, such as `record` (session logs live in `src/replay`) and `telemetry`
 * (OpenTelemetry spans, `src/otel`, imported only when asked for). It sits at the top so that the interpreter never
 * imports upward.
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
import type { TelemetryOptions } from '../otel/trace-run.ts';

export interface QueryOptions extends EngineQueryOptions {
  /**
   * Records the run as a session log (JSONL, see docs/replay.md): a file path or a writable, written append-only
   * line by line; secrets are redacted (add patterns with `redact`).
   */
  record?: RecordTarget | { target: RecordTarget; redact?: RedactOptions; fsync?: boolean };
  /**
   * OpenTelemetry spans of the run on your `Tracer` (GenAI semantic conventions, see docs/integrations.md); prompts
   * and tool contents only with `captureContent`, redacted. Needs `@opentelemetry/api`; absent, it costs nothing.
   */
  telemetry?: TelemetryOptions;
}

/** The engine's options for `options`: the extras become run observers. */
export function engineOptionsOf(options: QueryOptions): EngineQueryOptions {
  const { record, telemetry: _telemetry, ...engine } = options;
  const observers: RunObserverFactory[] = [...(engine.observers ?? [])];
  if (record !== undefined) {
    const spec = typeof record === 'object' && 'target' in record ? record : { target: record };
    observers.push(recordTo(spec.target, { redact: spec.redact, fsync: spec.fsync }));
  }
  return { ...engine, observers };
}

export function query(options: QueryOptions): AsyncGenerator<QueryItem, Terminal, undefined> {
  const { telemetry } = options;
  if (telemetry === undefined) return engineQuery(engineOptionsOf(options));
  return (async function* traced() {
    return yield* engineQuery(await tracedEngineOptions(options, telemetry));
  })();
}

/** Runs `query()` to its end and collects what it yielded. */
export async function runQuery(options: QueryOptions): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  const { telemetry } = options;
  return engineRunQuery(telemetry === undefined ? engineOptionsOf(options) : await tracedEngineOptions(options, telemetry));
}

/** The engine's options plus the run's spans: the OpenTelemetry mapping (and its peer dependency) loads only here. */
async function tracedEngineOptions(options: QueryOptions, telemetry: TelemetryOptions): Promise<EngineQueryOptions> {
  const { traceRun } = await import('../otel/trace-run.ts');
  const engine = engineOptionsOf(options);
  return { ...engine, observers: [...(engine.observers ?? []), traceRun(telemetry)] };
}
