/**
 * The boundary of a run, shared by `query()` (`./query.ts`) and `durableQuery()` (`src/durable/durable-query.ts`):
 * the public options checked once (an unknown option or config key is an error naming it, with the key it was
 * probably meant to be), and the options that need a layer above the engine (`record`, `telemetry`, `inspect`,
 * `onRetry`) turned into run observers and deps. Below it, both drivers take the engine's options
 * (`LoopOptions`) and resolve the run the same way (`resolveRun()`).
 */
import type { LoopOptions, RunObserverFactory } from '../runtime/query-options.ts';
import { checkQueryOptionKeys, type CheckedEntryPoint } from './query-option-keys.ts';
import type { RedactOptions } from '../replay/redact.ts';
import type { RecordTarget } from '../replay/session-recorder.ts';
import type { TelemetryOptions } from '../otel/trace-run.ts';
import type { Inspector, InspectorOptions } from '../inspector/inspector.ts';
import { createAnthropicModelCaller, type ModelRetryNotice } from '../model/anthropic-model-caller.ts';

/** The options of `query()`: the run's (`LoopOptions`) plus what needs a layer above the engine. */
export interface QueryOptions extends LoopOptions {
  /**
   * Records the run as a session log (JSONL, see docs/replay.md): a file path or a writable, written append-only
   * line by line; secrets are redacted (add patterns with `redact`).
   */
  record?: RecordTarget | { target: RecordTarget; redact?: RedactOptions; fsync?: boolean; onError?: (error: Error) => void };
  /**
   * OpenTelemetry spans of the run on your `Tracer` (GenAI semantic conventions, see docs/integrations.md); prompts
   * and tool contents only with `captureContent`, redacted. Needs `@opentelemetry/api`; absent, it costs nothing.
   */
  telemetry?: TelemetryOptions;
  /**
   * Watch the run live in the browser (docs/inspector.md): `true` or options start the process's inspector on
   * 127.0.0.1 and print its URL to stderr (or hand it to `onUrl`); an `Inspector` from `startInspector()` is used
   * as is, so code can `pause()`, `step()` and `resume()` it. Forked compaction runs show as their own sessions.
   */
  inspect?: true | (InspectorOptions & { onUrl?: (url: string) => void; name?: string }) | Inspector;
  /**
   * Told before each retry of a failed model request: what failed, where (and why, when no HTTP answer came),
   * retry k of n and the wait, so a caller need not wait in silence through the backoff. Applies to the default
   * Anthropic caller; a `deps.callModel` of your own reports its own retries (`createAnthropicModelCaller({ onRetry })`).
   */
  onRetry?: (notice: ModelRetryNotice) => void;
}

/**
 * The engine's options for `options`, checked once here at the boundary: an unknown option or config key is an
 * error naming it (with the key it was probably meant to be); the extras become run observers.
 */
export async function engineOptionsOf(options: QueryOptions, callee: CheckedEntryPoint): Promise<LoopOptions> {
  checkQueryOptionKeys(options, callee);
  if (options.config !== undefined) {
    // Loaded only when a config is given: the root import stays free of zod.
    const { parseConfigOverrides } = await import('../config/parse-config-overrides.ts');
    parseConfigOverrides(options.config);
  }
  const { record, inspect, telemetry, onRetry, ...engine } = options;
  if (onRetry !== undefined && engine.deps?.callModel === undefined) {
    engine.deps = { ...engine.deps, callModel: createAnthropicModelCaller({ onRetry }) };
  }
  const observers: RunObserverFactory[] = [...(engine.observers ?? [])];
  const forkObservers: RunObserverFactory[] = [...(engine.forkObservers ?? [])];
  if (record !== undefined) {
    const spec = typeof record === 'object' && 'target' in record ? record : { target: record };
    const { target, ...recording } = spec;
    // Loaded only when asked for, like the inspector: the root import stays free of the log format and redaction.
    const [{ recordTo }, { recordChildrenBeside }] = await Promise.all([import('../replay/session-recorder.ts'), import('../replay/child-log-files.ts')]);
    observers.push(recordTo(target, recording));
    // Subagents' runs are recorded beside a log file (docs/subagents.md); a stream target records the parent only.
    if (typeof target === 'string' && engine.childObservers === undefined) {
      engine.childObservers = recordChildrenBeside(target, recording);
    }
  }
  if (inspect !== undefined) {
    // Loaded only when asked for: the root import stays free of the server and the page.
    const { Inspector, sharedInspector } = await import('../inspector/inspector.ts');
    const inspector = inspect instanceof Inspector ? inspect : await sharedInspector(inspect === true ? {} : inspect);
    const name = inspect === true || inspect instanceof Inspector ? undefined : inspect.name;
    observers.push(inspector.attach(name ?? engine.querySource ?? 'main'));
    forkObservers.push(inspector.attach('compaction'));
  }
  if (telemetry !== undefined) {
    // Loaded only when asked for, like the inspector: the span mapping and its peer dependency.
    const { traceRunAndForks } = await import('../otel/trace-run.ts');
    const spans = traceRunAndForks(telemetry);
    observers.push(spans.run);
    forkObservers.push(spans.fork);
  }
  return { ...engine, observers, forkObservers };
}
