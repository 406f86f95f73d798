/**
 * A real MCP server for the Streamable HTTP tests, built with the official SDK and served in-process on
 * 127.0.0.1 (server-everything's HTTP mode binds every interface). Its tools: `wait` (runs until cancelled and
 * records that it was), `add_tool` (registers `greet`, which changes the tool list), and `whoami` (says which
 * Authorization header the request carried).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestHttpServer {
  url: string;
  /** Tool calls whose signal the server saw aborted (a `notifications/cancelled` arrived). */
  cancelled: string[];
  close(): Promise<void>;
}

export async function startTestHttpMcpServer(): Promise<TestHttpServer> {
  const cancelled: string[] = [];
  let lastAuthorization: string | undefined;
  const mcp = new McpServer({ name: 'turnloop-test-http', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  mcp.registerTool('wait', { description: 'Waits until cancelled (at most 10 s).', inputSchema: { label: z.string() }, annotations: { readOnlyHint: true } }, async ({ label }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        cancelled.push(label);
        resolve();
      });
    });
    return { content: [{ type: 'text', text: `waited for ${label}` }] };
  });
  mcp.registerTool('add_tool', { description: 'Adds the greet tool.', annotations: { readOnlyHint: false, destructiveHint: false } }, async (extra) => {
    mcp.registerTool('greet', { description: 'Greets someone.', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } }, async ({ name }) => ({
      content: [{ type: 'text', text: `Hello, ${name}!` }],
    }));
    // Announced on this request's own stream too, so the client hears it before the result.
    await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    return { content: [{ type: 'text', text: 'greet is available now' }] };
  });
  mcp.registerTool('whoami', { description: 'Echoes the Authorization header.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: `authorization: ${lastAuthorization ?? '(none)'}` }],
  }));

  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const http = createServer((req: IncomingMessage, res) => {
    lastAuthorization = req.headers.authorization;
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    cancelled,
    async close() {
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
