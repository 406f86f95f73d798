/**
 * One tool of an MCP server as a turnloop `Tool`.
 *
 * - Name: `mcp__<server>__<tool>` (Claude Code's convention; characters outside `[A-Za-z0-9_-]` become `_`).
 * - The model sees the server's JSON Schema as given; each call is validated against it first (`json-schema-input.ts`,
 *   Extension `mcpInputValidation`).
 * - Annotations (MCP spec defaults): `readOnlyHint` → read-only and concurrency-safe; a tool that is not read-only
 *   is destructive unless `destructiveHint: false`, and a destructive tool asks for permission (`canUseTool` decides;
 *   with no one to ask, the call is denied). Extension `mcpAnnotationPermissions`: Claude Code asks for every MCP call.
 * - Progress notifications become progress updates; the result is the server's (`tool-result.ts`).
 */
import { defineTool, type Tool, type ToolCallResult, type ToolCallUpdate, type ToolContext } from '../effects/tools/define-tool.ts';
import { jsonSchemaInput, type JsonSchemaCompiler } from './json-schema-input.ts';

/** A tool as `tools/list` describes it (the parts read here). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Calls the tool on its server; never rejects (a failure is an error result). */
export type McpToolCaller = (
  toolName: string,
  args: Record<string, unknown>,
  call: { signal: AbortSignal; onProgress: (progress: McpProgress) => void },
) => Promise<ToolCallResult>;

export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

/**
 * @example
 * const tool = mcpTool('fs', { name: 'read_text_file', inputSchema, annotations: { readOnlyHint: true } }, compile, caller);
 * tool.name; // 'mcp__fs__read_text_file'
 */
export function mcpTool(server: string, info: McpToolInfo, compile: JsonSchemaCompiler, caller: McpToolCaller): Tool<Record<string, unknown>> {
  const readOnly = info.annotations?.readOnlyHint === true;
  const destructive = !readOnly && info.annotations?.destructiveHint !== false;
  const name = mcpToolName(server, info.name);
  return defineTool({
    name,
    description: info.description ?? info.title ?? info.annotations?.title ?? `The ${info.name} tool of the MCP server ${server}.`,
    inputSchema: jsonSchemaInput(compile(info.inputSchema)),
    inputJSONSchema: info.inputSchema,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    checkPermissions: () =>
      destructive
        ? { behavior: 'ask', message: `${name} is not marked read-only or non-destructive by its MCP server, so it needs approval` }
        : { behavior: 'allow' },
    call: (input, ctx) => callWithProgress(caller, info.name, input, ctx),
  });
}

/** The call as a stream: progress notifications as they arrive, then the one result. */
async function* callWithProgress(
  caller: McpToolCaller,
  toolName: string,
  input: Record<string, unknown>,
  ctx: ToolContext,
): AsyncGenerator<ToolCallUpdate> {
  const updates: ToolCallUpdate[] = [];
  let wake: (() => void) | null = null;
  const settled: { result?: ToolCallResult } = {};
  const onProgress = (p: McpProgress) => {
    const of = p.total === undefined ? '' : `/${p.total}`;
    updates.push({
      type: 'progress',
      message: p.message ? `${p.message} (${p.progress}${of})` : `progress ${p.progress}${of}`,
      data: { progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }) },
    });
    wake?.();
  };
  const settle = (result: ToolCallResult) => {
    settled.result = result;
    wake?.();
  };
  // The caller never rejects by contract; should it, the call still ends with one result.
  caller(toolName, input, { signal: ctx.signal, onProgress }).then(settle, (error: unknown) =>
    settle({ content: `Error: ${error instanceof Error ? error.message : String(error)}`, isError: true }),
  );
  while (true) {
    while (updates.length > 0) yield updates.shift() as ToolCallUpdate;
    if (settled.result) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  yield { type: 'result', result: settled.result };
}
