/**
 * One connected MCP server: the official SDK's client over stdio or Streamable HTTP, its tools as turnloop tools,
 * and their refresh on `notifications/tools/list_changed`.
 *
 * Invariants:
 * - a tool call never rejects and never crashes the loop: a server that died, closed the connection, timed out or
 *   answered with a protocol error gives an error result that says which server and why (with the end of its
 *   stderr when it exited);
 * - aborting the call's signal cancels the request (the SDK sends `notifications/cancelled`);
 * - a list refresh runs one at a time; a call returns only after a refresh that started during it has finished, so
 *   a tool that changes the list is followed by a turn that sees the new list;
 * - the SDK is imported lazily, here, so `turnloop/mcp` costs nothing until a server is connected;
 * - a stdio server's process does not outlive its connection: one that ignores SIGTERM is killed on close, and any
 *   still running when the process exits (a forced exit) is killed then.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool, ToolCallResult } from '../tools/define-tool.ts';
import type { JsonSchemaCompiler } from './json-schema-input.ts';
import { mcpTool, type McpToolCaller, type McpToolInfo } from './mcp-tool.ts';
import type { McpServerSpec } from './server-config.ts';
import { toolResultOfMcp, type McpCallToolResult } from './tool-result.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface ConnectOptions {
  compile: JsonSchemaCompiler;
  /** Initialization and `tools/list` requests. */
  connectTimeoutMs: number;
  /** One `tools/call`. */
  toolTimeoutMs: number;
  clientInfo: { name: string; version: string };
}

export interface McpServerConnection {
  readonly name: string;
  /** The server's tools as of its last `tools/list`. */
  readonly tools: readonly Tool[];
  /** The child process of a stdio server. */
  readonly pid: number | undefined;
  /** Why the connection is gone, or null while it is up. */
  readonly closedBecause: string | null;
  /** The server's `instructions`, if it gave any. */
  readonly instructions: string | undefined;
  close(): Promise<void>;
}

const STDERR_TAIL_CHARS = 2_000;

/** Connects, lists the tools, and watches for list changes. Rejects when the server cannot be reached. */
export async function connectMcpServer(name: string, spec: McpServerSpec, options: ConnectOptions): Promise<McpServerConnection> {
  const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  let stderrTail = '';
  let pid: () => number | undefined = () => undefined;
  const transport = await (async () => {
    if ('url' in spec) {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers ?? {} } });
    }
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const stdio = new StdioClientTransport({ command: spec.command, args: spec.args ?? [], env: spec.env, cwd: spec.cwd, stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    pid = () => stdio.pid ?? undefined;
    return stdio;
  })();

  const client = new Client(options.clientInfo, { capabilities: {} });
  let closedBecause: string | null = null;
  let closing = false;
  const lastWords = () => (stderrTail.trim() ? `; its stderr ended with: ${stderrTail.trim().slice(-500)}` : '');
  client.onclose = () => {
    closedBecause ??= closing ? 'it was closed' : `the server closed the connection${lastWords()}`;
  };
  client.onerror = () => undefined; // transport errors surface as failed requests, with their own text
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs });
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw new TurnloopError('MCP_CONNECT_FAILED', `could not connect: ${messageOf(error)}${lastWords()}`);
  }

  const serverPid = pid();
  if (serverPid !== undefined) running.add(serverPid);
  killRunningAtExit();

  const caller: McpToolCaller = (toolName, args, call) => callTool(toolName, args, call);
  const toTools = (infos: McpToolInfo[]) => infos.map((info) => mcpTool(name, info, options.compile, caller));
  let tools: readonly Tool[] = [];
  try {
    tools = toTools(await listTools(client, options.connectTimeoutMs));
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw new TurnloopError('MCP_CONNECT_FAILED', `connected, but tools/list failed: ${messageOf(error)}`);
  }

  let refreshing: Promise<void> = Promise.resolve();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    refreshing = refreshing.then(async () => {
      try {
        tools = toTools(await listTools(client, options.connectTimeoutMs));
      } catch {
        // Keep the last list: its calls will say what is wrong if the server is gone.
      }
    });
  });

  async function callTool(toolName: string, args: Record<string, unknown>, call: Parameters<McpToolCaller>[2]): Promise<ToolCallResult> {
    const failure = (why: string): ToolCallResult => ({ content: `Error: MCP server "${name}", tool "${toolName}": ${why}`, isError: true });
    if (closedBecause) return failure(`the server is not connected (${closedBecause})`);
    try {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        signal: call.signal,
        timeout: options.toolTimeoutMs,
        onprogress: (p) => call.onProgress({ progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }), ...(p.message ? { message: p.message } : {}) }),
      });
      await refreshing;
      return toolResultOfMcp(result as McpCallToolResult);
    } catch (error) {
      if (call.signal.aborted) return failure('cancelled');
      if (closedBecause) return failure(`the server is not connected (${closedBecause})`);
      if (isTimeout(error)) return failure(`no answer within ${options.toolTimeoutMs} ms (request timed out)`);
      return failure(messageOf(error));
    }
  }

  return {
    name,
    get tools() {
      return tools;
    },
    get pid() {
      return pid();
    },
    get closedBecause() {
      return closedBecause;
    },
    instructions: client.getInstructions(),
    async close() {
      closing = true;
      closedBecause ??= 'it was closed';
      await client.close().catch(() => undefined);
      if (serverPid !== undefined) await reap(serverPid);
    },
  };
}

/**
 * Processes of stdio servers still running. A server that ignores SIGTERM (what closing the transport sends) is
 * killed after `REAP_GRACE_MS`, and whatever still runs when this process exits (a forced exit on a second
 * Ctrl-C included) is killed then, so no server outlives the run.
 */
const running = new Set<number>();
let exitHook = false;
const REAP_GRACE_MS = 1_000;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function killRunningAtExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const pid of running) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  });
}

async function reap(pid: number): Promise<void> {
  const deadline = Date.now() + REAP_GRACE_MS;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (isRunning(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
  running.delete(pid);
}

async function listTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    tools.push(...(page.tools as McpToolInfo[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The SDK's `RequestTimeout` error code (JSON-RPC implementation-defined range). */
const REQUEST_TIMEOUT = -32001;

function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === REQUEST_TIMEOUT;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
