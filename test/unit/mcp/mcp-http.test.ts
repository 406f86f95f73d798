/**
 * MCP over Streamable HTTP, against an SDK server on 127.0.0.1 run by the test: headers reach the server, an
 * aborted call is cancelled on the server too, and a `tools/list_changed` is seen by the next turn of a run whose
 * `tools` is a function (Claude Code refreshes its tools between iterations).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { mcpTools, McpConnectError, type McpToolSet } from '../../../src/mcp/index.ts';
import { startTestHttpMcpServer, type TestHttpServer } from './http-server.ts';

describe('MCP tools over Streamable HTTP', () => {
  let server: TestHttpServer;
  let mcp: McpToolSet;
  beforeEach(async () => {
    server = await startTestHttpMcpServer();
    mcp = await mcpTools({ servers: { web: { type: 'http', url: server.url, headers: { Authorization: 'Bearer test-token' } } } });
  });
  afterEach(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('lists the tools and sends the configured headers', async () => {
    expect(mcp.tools.map((t) => t.name).sort()).toEqual(['mcp__web__add_tool', 'mcp__web__wait', 'mcp__web__whoami']);
    const whoami = mcp.tools.find((t) => t.name === 'mcp__web__whoami');
    const updates = [];
    for await (const u of whoami?.call({}, { toolUseId: 'w', idempotencyKey: 'w', signal: new AbortController().signal, context: {} }) as AsyncIterable<unknown>) updates.push(u);
    expect(updates).toEqual([{ type: 'result', result: { content: 'authorization: Bearer test-token' } }]);
  });

  it('cancels the request on the server when the call is aborted', async () => {
    const wait = mcp.tools.find((t) => t.name === 'mcp__web__wait');
    const abort = new AbortController();
    setTimeout(() => abort.abort('user'), 100);
    const updates = [];
    for await (const u of wait?.call({ label: 'job-1' }, { toolUseId: 'a', idempotencyKey: 'a', signal: abort.signal, context: {} }) as AsyncIterable<unknown>) updates.push(u);
    expect(updates.at(-1)).toEqual({ type: 'result', result: { content: 'Error: MCP server "web", tool "wait": cancelled', isError: true } });
    await expect.poll(() => server.cancelled).toEqual(['job-1']);
  });

  it('offers a tool added by tools/list_changed from the next turn on', async () => {
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 't_add', name: 'mcp__web__add_tool', input: {} }] },
        { content: [{ type: 'tool_use', id: 't_greet', name: 'mcp__web__greet', input: { name: 'Ada' } }] },
        { content: [{ type: 'text', text: 'Greeted.' }] },
      ],
    });
    try {
      const { terminal } = await runLoopToEnd({
        prompt: 'add a tool, then use it',
        tools: () => mcp.tools,
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      expect(terminal).toEqual({ reason: 'completed' });
      const offered = api.log.map((r) => ((r.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name).sort());
      expect(offered[0]).toEqual(['mcp__web__add_tool', 'mcp__web__wait', 'mcp__web__whoami']);
      expect(offered[1]).toEqual(['mcp__web__add_tool', 'mcp__web__greet', 'mcp__web__wait', 'mcp__web__whoami']);
      const last = api.log[2].body as { messages: Array<{ content: unknown }> };
      expect(JSON.stringify(last.messages)).toContain('Hello, Ada!');
    } finally {
      await api.close();
    }
  });

  it('rejects with the server name when a server cannot be reached', async () => {
    const closed = await startTestHttpMcpServer();
    const url = closed.url;
    await closed.close();
    const attempt = mcpTools({ servers: { gone: { type: 'http', url } }, connectTimeoutMs: 2_000 });
    await expect(attempt).rejects.toBeInstanceOf(McpConnectError);
    await expect(attempt).rejects.toThrow(/^MCP server "gone": could not connect: /);
  });
});
