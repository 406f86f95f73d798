/**
 * The in-process MCP servers an SDK program names in `initialize` (`sdkMcpServers`), as turnloop tools named
 * `mcp__<server>__<tool>` (docs/agent-sdk.md): the official MCP client over `ControlMcpTransport`, tools listed
 * once at connect, each call a `tools/call`. A server that cannot be reached is reported `failed` in `init` and on
 * stderr; the others still connect. The MCP SDK (an optional peer) is loaded only when a program has such servers.
 */
import type { Tool } from '../tools/define-tool.ts';
import { loadAjvCompiler } from '../mcp/json-schema-input.ts';
import { mcpTool, type McpToolInfo } from '../mcp/mcp-tool.ts';
import { toolResultOfMcp, type McpCallToolResult } from '../mcp/tool-result.ts';
import type { JsonObject } from './json-lines.ts';
import { ControlMcpTransport } from './sdk-mcp-transport.ts';
import { messageOf } from '../errors/message-of.ts';

export interface SdkMcpConnection {
  tools: Tool[];
  servers: Array<{ name: string; status: 'connected' | 'failed' }>;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 30_000;

export async function connectSdkMcpServers(
  names: readonly string[],
  ask: (request: JsonObject & { subtype: string }) => Promise<JsonObject>,
  warn: (text: string) => void,
): Promise<SdkMcpConnection> {
  const [{ Client }, compile] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), loadAjvCompiler()]);
  const tools: Tool[] = [];
  const servers: SdkMcpConnection['servers'] = [];
  const clients: Array<{ close(): Promise<void> }> = [];
  for (const name of names) {
    const client = new Client({ name: 'turnloop', version: '0.1.0' }, { capabilities: {} });
    client.onerror = () => undefined;
    try {
      await client.connect(new ControlMcpTransport(name, ask) as never, { timeout: CONNECT_TIMEOUT_MS });
      const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
      for (const info of listed.tools as McpToolInfo[]) {
        tools.push(mcpTool(name, info, compile, async (toolName, args, call) => {
          try {
            return toolResultOfMcp((await client.callTool({ name: toolName, arguments: args }, undefined, { signal: call.signal })) as McpCallToolResult);
          } catch (error) {
            return { content: `Error: SDK MCP server "${name}", tool "${toolName}": ${messageOf(error)}`, isError: true };
          }
        }));
      }
      clients.push(client);
      servers.push({ name, status: 'connected' });
    } catch (error) {
      warn(`the SDK MCP server '${name}' could not be reached: ${messageOf(error)}`);
      servers.push({ name, status: 'failed' });
      await client.close().catch(() => undefined);
    }
  }
  return {
    tools,
    servers,
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    },
  };
}
