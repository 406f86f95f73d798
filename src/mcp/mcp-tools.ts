/**
 * `mcpTools()`: connects to MCP servers and hands back their tools, ready for `query({ tools })`.
 *
 * Invariants: every server is connected before the promise resolves, or none stays connected (a failure closes the
 * others and rejects with `McpConnectError` naming the server); `tools` is read live, so after a server's
 * `tools/list_changed` it holds the new list; `close()` ends every connection (a stdio server's process with it)
 * and may be called more than once.
 */
import type { Tool } from '../tools/define-tool.ts';
import { loadAjvCompiler } from './json-schema-input.ts';
import { uniqueToolNames } from './mcp-tool.ts';
import { checkMcpServers, type McpServerSpec } from './server-config.ts';
import { connectMcpServer, type McpServerConnection } from './server-connection.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { messageOf } from '../errors/message-of.ts';

export interface McpToolsOptions {
  /** By name: `{ command, args, env, cwd }` (stdio) or `{ type: 'http', url, headers }` (Streamable HTTP). */
  servers: Record<string, McpServerSpec>;
  /** Connecting and listing tools, per request; default 30 s (Claude Code's `MCP_TIMEOUT` default). */
  connectTimeoutMs?: number;
  /** One tool call; default 100,000,000 ms (Claude Code's `MCP_TOOL_TIMEOUT` default: in effect none). */
  toolTimeoutMs?: number;
}

export interface McpServerStatus {
  name: string;
  /** The process of a stdio server. */
  pid: number | undefined;
  /** Why the connection is gone, or null while it is up. */
  closedBecause: string | null;
  instructions: string | undefined;
}

export interface McpToolSet {
  /** The tools of every server, as of their last `tools/list` (read it again for the current list). */
  readonly tools: Tool[];
  readonly servers: McpServerStatus[];
  close(): Promise<void>;
}

export class McpConnectError extends TurnloopError {
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super('MCP_CONNECT_FAILED', `MCP server "${server}": ${reason}`);
    this.name = 'McpConnectError';
  }
}

export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 100_000_000;

const CLIENT_INFO = { name: 'turnloop', version: '0.1.0' };

/**
 * @example
 * const mcp = await mcpTools({ servers: { fs: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', root] } } });
 * try {
 *   await runQuery({ prompt, tools: () => [...createFileTools({ root }), ...mcp.tools], canUseTool });
 * } finally {
 *   await mcp.close();
 * }
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpToolSet> {
  const servers = checkMcpServers(options.servers, 'mcpTools({ servers })');
  const compile = await loadAjvCompiler();
  const connectOptions = {
    compile,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
    toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_MCP_TOOL_TIMEOUT_MS,
    clientInfo: CLIENT_INFO,
  };
  const names = Object.keys(servers);
  const settled = await Promise.allSettled(names.map((name) => connectMcpServer(name, servers[name], connectOptions)));
  const connections = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.findIndex((s) => s.status === 'rejected');
  if (failed >= 0) {
    await Promise.all(connections.map((c) => c.close()));
    const reason = (settled[failed] as PromiseRejectedResult).reason;
    throw new McpConnectError(names[failed], messageOf(reason));
  }
  return toolSet(connections);
}

function toolSet(connections: McpServerConnection[]): McpToolSet {
  // Names unique across servers, worked out again only when a server's list changed (the getter is read per turn).
  let lists: ReadonlyArray<readonly Tool[]> = [];
  let unique: Tool[] = [];
  return {
    get tools() {
      const current = connections.map((c) => c.tools);
      if (current.length !== lists.length || current.some((list, i) => list !== lists[i])) {
        lists = current;
        unique = uniqueToolNames(current.flat());
      }
      return unique;
    },
    get servers() {
      return connections.map((c) => ({ name: c.name, pid: c.pid, closedBecause: c.closedBecause, instructions: c.instructions }));
    },
    async close() {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}
