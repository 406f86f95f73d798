/**
 * A tracer that exports over OTLP/HTTP (JSON) to the endpoint the standard `OTEL_*` environment variables name, for
 * `turnloop run --otel` and for scripts that have no OpenTelemetry setup of their own. The SDK packages
 * (`@opentelemetry/sdk-trace-base`, `@opentelemetry/exporter-trace-otlp-http`, `@opentelemetry/resources`) are
 * optional peers, imported only here.
 *
 * Variables read (from the given environment, not `process.env`, so a caller decides):
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as is), else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, else
 *   `http://localhost:4318/v1/traces`;
 * - `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, else `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key2=value2`, URL-encoded);
 * - `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/json` is what is sent;
 *   `http/protobuf` is answered with JSON on the same endpoint (OTLP/HTTP receivers take both), `grpc` is refused;
 * - `OTEL_SERVICE_NAME` (default `turnloop`) and `OTEL_RESOURCE_ATTRIBUTES`;
 * - `OTEL_SDK_DISABLED=true`: no tracer at all.
 */
import type { Tracer } from '@opentelemetry/api';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { messageOf } from '../errors/message-of.ts';

export interface OtlpTracing {
  tracer: Tracer;
  /** Where spans go. */
  endpoint: string;
  /** Set when the environment asked for something turnloop does differently (say it to the user). */
  note?: string;
  /**
   * Sends what is buffered and stops the exporter, waiting at most `OTLP_FLUSH_TIMEOUT_MS`. Never rejects: a
   * collector that refuses or never answers is told to `warn`, so telemetry never changes a run's outcome.
   */
  shutdown(): Promise<void>;
}

export class OtlpConfigError extends TurnloopError {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super('OTLP_CONFIG_INVALID', `${variable}: ${message}`);
    this.name = 'OtlpConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The exporter's settings from the environment; pure, so bad values are found before anything starts. */
export function otlpSettingsFromEnv(env: Env): { endpoint: string; headers: Record<string, string>; serviceName: string; resource: Record<string, string>; protocolNote?: string } {
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[protocolVariable] ?? 'http/json').trim();
  if (protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw new OtlpConfigError(protocolVariable, `"${protocol}" is not supported; turnloop exports OTLP over HTTP as JSON (use http/json)`);
  }
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const baseEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const endpoint = tracesEndpoint || (baseEndpoint ? `${baseEndpoint.replace(/\/+$/, '')}/v1/traces` : 'http://localhost:4318/v1/traces');
  const endpointVariable = tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    throw new OtlpConfigError(endpointVariable, `expected an http(s) URL such as http://localhost:4318, got ${JSON.stringify(endpoint)}`);
  }
  const headersVariable = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS' : 'OTEL_EXPORTER_OTLP_HEADERS';
  return {
    endpoint,
    headers: keyValueList(env[headersVariable], headersVariable),
    ...serviceAndResource(env),
    ...(protocol === 'http/protobuf' ? { protocolNote: `${protocolVariable}=http/protobuf: sending http/json to the same endpoint instead` } : {}),
  };
}

/** `OTEL_SERVICE_NAME` wins over a `service.name` in `OTEL_RESOURCE_ATTRIBUTES`; `turnloop` when neither names one. */
function serviceAndResource(env: Env): { serviceName: string; resource: Record<string, string> } {
  const resource = keyValueList(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES');
  return { serviceName: env.OTEL_SERVICE_NAME?.trim() || resource['service.name'] || 'turnloop', resource };
}

/** `a=1,b=two%20words` → `{ a: '1', b: 'two words' }`. */
function keyValueList(text: string | undefined, variable: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (text ?? '').split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new OtlpConfigError(variable, `expected key=value pairs separated by commas, got ${JSON.stringify(item.trim())}`);
    try {
      out[decodeURIComponent(item.slice(0, eq).trim())] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      throw new OtlpConfigError(variable, `not URL-encoded correctly: ${JSON.stringify(item.trim())}`);
    }
  }
  return out;
}

/**
 * Starts an OTLP/HTTP exporting tracer, or answers null when `OTEL_SDK_DISABLED=true`.
 *
 * @example
 * const tracing = await startOtlpTracing(process.env);
 * try { await runQuery({ prompt, telemetry: tracing ? { tracer: tracing.tracer } : undefined }); }
 * finally { await tracing?.shutdown(); }
 */
/**
 * How long the exporter waits for the collector, per request and for the final flush. Bounded so that a collector
 * that never answers holds the process only this long after the run ends (the SDK's default is 10 s per request).
 */
export const OTLP_FLUSH_TIMEOUT_MS = 2_000;

/** Resolves when `work` settles or after `ms`, whichever comes first; says why it did not succeed, or null. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((done) => {
    timer = setTimeout(() => done(`the collector did not answer within ${ms} ms`), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => null), timeout]);
  } catch (error) {
    return messageOf(error);
  } finally {
    clearTimeout(timer);
  }
}

export async function startOtlpTracing(env: Env, options: { warn?: (message: string) => void } = {}): Promise<OtlpTracing | null> {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const settings = otlpSettingsFromEnv(env);
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers, timeoutMillis: OTLP_FLUSH_TIMEOUT_MS });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ ...settings.resource, 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return {
    tracer: provider.getTracer('turnloop'),
    endpoint: settings.endpoint,
    ...(settings.protocolNote ? { note: settings.protocolNote } : {}),
    shutdown: async () => {
      const problem = await settleWithin(provider.shutdown(), OTLP_FLUSH_TIMEOUT_MS);
      if (problem) options.warn?.(`spans not exported to ${settings.endpoint}: ${problem}`);
    },
  };
}
