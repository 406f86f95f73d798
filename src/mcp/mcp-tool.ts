/**
 * One tool of an MCP server as a turnloop `Tool`.
 *
 * - Name: `mcp__<server>__<tool>` (Claude Code's convention; characters outside `[A-Za-z0-9_-]` become `_`), cut to
 *   the API's 64 characters with a digest of the original when longer (`mcpToolName`); collisions made unique by
 *   `uniqueToolNames`.
 * - The model sees the server's JSON Schema as given; each call is validated against it first (`json-schema-input.ts`,
 *   Extension `mcpInputValidation`).
 * - Annotations (MCP spec defaults): `readOnlyHint` → read-only and concurrency-safe; a tool that is not read-only
 *   is destructive unless `destructiveHint: false`, and a destructive tool asks for permission (`canUseTool` decides;
 *   with no one to ask, the call is denied). Extension `mcpAnnotationPermissions`: Claude Code asks for every MCP call.
 * - Progress notifications become progress updates; the result is the server's (`tool-result.ts`).
 */
import { createHash } from 'node:crypto';
import { defineTool, type Tool, type ToolCallResult, type ToolCallUpdate, type ToolContext } from '../tools/define-tool.ts';
import { jsonSchemaInput, type JsonSchemaCompiler } from './json-schema-input.ts';
import { messageOf } from '../errors/message-of.ts';

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

/** The API accepts tool names of 1 to 64 characters from `[A-Za-z0-9_-]`; every request carrying another fails. */
export const MAX_API_TOOL_NAME = 64;

/** A short digest of the server's own names, so two long names cut to the same prefix stay apart. */
function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The name the model sees: `mcp__<server>__<tool>`, normalised; one longer than the API accepts is cut and ends
 * with a digest of the original (`mcp__srv__a_very_long…_1a2b3c4d`). Calls go to the server under the tool's own
 * name (the tool keeps it), so nothing maps back by parsing this.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
  if (name.length <= MAX_API_TOOL_NAME) return name;
  return `${name.slice(0, MAX_API_TOOL_NAME - 9)}_${digestOf(`${server}\u0000${tool}`)}`;
}

/**
 * Tools whose names collide after normalising (`a.b` and `a_b`, or `mcp__a__b_c` from two servers) get `_2`,
 * `_3`, … in list order, cut to fit the API's length; a tool that keeps its name is returned as it is.
 */
export function uniqueToolNames<T extends { name: string }>(tools: readonly T[]): T[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    let name = tool.name;
    for (let n = 2; taken.has(name); n++) name = `${tool.name.slice(0, MAX_API_TOOL_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name === tool.name ? tool : { ...tool, name };
  });
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
    settle({ content: `Error: ${messageOf(error)}`, isError: true }),
  );
  while (true) {
    while (updates.length > 0) yield updates.shift() as ToolCallUpdate;
    if (settled.result) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  yield { type: 'result', result: settled.result };
}
