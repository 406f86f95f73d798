/**
 * `turnloop/otel`: OpenTelemetry traces of a run, after the GenAI semantic conventions (`@opentelemetry/api` is an
 * optional peer dependency). `query({ telemetry: { tracer } })` attaches `traceRun` for you.
 */
export { traceRun, traceRunAndForks, type TelemetryOptions } from './trace-run.ts';
export { GEN_AI, TURNLOOP, OPERATION } from './gen-ai-attributes.ts';
export { startOtlpTracing, otlpSettingsFromEnv, OtlpConfigError, OTLP_FLUSH_TIMEOUT_MS, type OtlpTracing } from './otlp-export.ts';
