/** In-process SDK MCP servers reached over mcp_message control requests (the program plays the server here). */
import { describe, expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, type Line, userLine, writeScript, tempProject } from './headless-harness.ts';

/** A tiny MCP server answering JSON-RPC the way the SDK's in-process server does, with one tool `add`. */
function mcpServerAnswer(message: Line): Line {
  if (message.id === undefined) return { jsonrpc: '2.0', result: {}, id: 0 };
  switch (message.method) {
    case 'initialize':
      return { jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'calc', version: '1.0.0' } } };
    case 'tools/list':
      return { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }] } };
    case 'tools/call':
      return { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: String(message.params.arguments.a + message.params.arguments.b) }] } };
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no such method' } };
  }
}

describe('SDK MCP servers over mcp_message', () => {
  it("lists the server's tools in init and calls them through the program", async () => {
    const cwd = tempProject();
    const script = {
      model: [
        { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'mcp__calc__add', input: { a: 2, b: 3 } }] },
        { content: [{ type: 'text' as const, text: 'five' }] },
      ],
    };
    const methods: string[] = [];
    const run = await runHeadless([...SDK_ARGS, '--allowedTools', 'mcp__calc', '--fake-api', writeScript(cwd, script)], {
      cwd,
      opening: [initialize({ sdkMcpServers: ['calc'] }), userLine('add 2 and 3')],
      onLine: (line, send) => {
        if (line.type !== 'control_request' || line.request.subtype !== 'mcp_message') return;
        expect(line.request.server_name).toBe('calc');
        methods.push(line.request.message.method);
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { mcp_response: mcpServerAnswer(line.request.message) } } });
      },
    });
    const init = run.lines.find((l) => l.subtype === 'init');
    expect(init?.mcp_servers).toEqual([{ name: 'calc', status: 'connected' }]);
    expect(init?.tools).toContain('mcp__calc__add');
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    const result = run.lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content)[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', content: '5' });
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'five' });
  });

  it('a server the program cannot serve is reported failed and the turn still runs', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text' as const, text: 'ok' }] }] })], {
      cwd,
      opening: [initialize({ sdkMcpServers: ['gone'] }), { type: 'control_request', request_id: 'st', request: { subtype: 'mcp_status' } }, userLine('hi')],
      onLine: (line, send) => {
        if (line.type === 'control_request') send({ type: 'control_response', response: { subtype: 'error', request_id: line.request_id, error: 'no such server' } });
      },
    });
    expect(run.lines.find((l) => l.subtype === 'init')?.mcp_servers).toEqual([{ name: 'gone', status: 'failed' }]);
    expect(run.lines.find((l) => l.type === 'control_response' && l.response.request_id === 'st')?.response).toMatchObject({ subtype: 'success', response: { mcpServers: [{ name: 'gone', status: 'failed' }] } });
    expect(run.stderr).toContain("SDK MCP server 'gone' could not be reached");
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'ok' });
  });
});

describe('MCP servers of the command line', () => {
  it('a server that cannot start is reported failed in init and on stderr; the turn runs', async () => {
    const cwd = tempProject();
    const config = JSON.stringify({ mcpServers: { broken: { command: '/no/such/server' } } });
    const run = await runHeadless([...SDK_ARGS, '--mcp-config', config, '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text' as const, text: 'ok' }] }] })], { cwd });
    expect(run.lines.find((l) => l.subtype === 'init')?.mcp_servers).toEqual([{ name: 'broken', status: 'failed' }]);
    expect(run.stderr).toContain("the MCP server 'broken' is not connected");
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success' });
  });
});
