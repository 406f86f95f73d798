/**
 * The integrations of `turnloop run`: `--mcp-config FILE` (MCP servers, Claude Code's `.mcp.json` shape) and
 * `--otel` (spans exported over OTLP/HTTP to the endpoint of the standard `OTEL_*` variables). Bad input here (a
 * missing or invalid file, a server that cannot start, a bad `OTEL_*` value) is a `UsageError`: exit 2, one message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpConnectError, mcpTools, type McpToolSet } from '../../mcp/mcp-tools.ts';
import { McpConfigError, parseMcpConfig } from '../../mcp/server-config.ts';
import { OtlpConfigError, startOtlpTracing, type OtlpTracing } from '../../otel/otlp-export.ts';
import { UsageError, type CliIo } from '../cli-io.ts';

export interface RunIntegrations {
  mcp: McpToolSet | null;
  tracing: OtlpTracing | null;
  /** Closes the MCP connections and flushes the spans. */
  close(): Promise<void>;
}

/** Starts what the flags ask for; tracing first, so a bad `OTEL_*` value is reported before any server starts. */
export async function startIntegrations(flags: { mcpConfig?: string; otel: boolean }, io: CliIo): Promise<RunIntegrations> {
  const tracing = flags.otel ? await startOtelFromEnv(io) : null;
  let mcp: McpToolSet | null = null;
  try {
    if (flags.mcpConfig !== undefined) mcp = await connectMcpFromConfig(flags.mcpConfig, io);
  } catch (error) {
    await tracing?.shutdown();
    throw error;
  }
  return {
    mcp,
    tracing,
    async close() {
      await mcp?.close();
      await tracing?.shutdown();
    },
  };
}

async function connectMcpFromConfig(file: string, io: CliIo): Promise<McpToolSet> {
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--mcp-config: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return await mcpTools({ servers: parseMcpConfig(text, path, io.env) });
  } catch (error) {
    if (error instanceof McpConfigError || error instanceof McpConnectError) throw new UsageError(`--mcp-config: ${error.message}`);
    throw error;
  }
}

/** The MCP servers' own instructions, for the system prompt (as Claude Code gives them to the model). */
export function mcpInstructions(mcp: McpToolSet | null): string[] {
  const parts = (mcp?.servers ?? []).flatMap((s) => (s.instructions?.trim() ? [`## ${s.name}\n${s.instructions.trim()}`] : []));
  return parts.length === 0 ? [] : [`# MCP Server Instructions\n\n${parts.join('\n\n')}`];
}

async function startOtelFromEnv(io: CliIo): Promise<OtlpTracing | null> {
  try {
    const tracing = await startOtlpTracing(io.env, { warn: (message) => void io.stderr.write(`turnloop run: --otel: ${message}\n`) });
    if (tracing?.note) io.stderr.write(`turnloop run: ${tracing.note}\n`);
    return tracing;
  } catch (error) {
    if (error instanceof OtlpConfigError) throw new UsageError(`--otel: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new UsageError(
        '--otel needs the OpenTelemetry SDK: npm install @opentelemetry/api @opentelemetry/sdk-trace-base @opentelemetry/exporter-trace-otlp-http @opentelemetry/resources',
      );
    }
    throw error;
  }
}
