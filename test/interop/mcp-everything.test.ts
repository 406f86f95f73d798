/**
 * MCP tools in the loop, against the real `@modelcontextprotocol/server-everything` started over stdio: a scripted
 * model (the loopback fake API) calls its tools, and the requests the model receives next show what each call
 * became — text, an image, an embedded resource, a resource link, structured output, a schema error explained in
 * the zod tools' words, progress updates; a timeout, an abort and a dead server each give an error result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicModelCaller } from '../../src/model/index.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import { counterIds } from '../../src/runtime/system-clock.ts';
import { startFakeAnthropicApi, type FakeApi } from '../../src/fake-api/index.ts';
import { mcpTools, type McpToolSet } from '../../src/mcp/index.ts';
import { everythingServer } from './mcp-servers.ts';

interface Body {
  tools?: Array<{ name: string; input_schema: Record<string, unknown> }>;
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
}

/** The tool_result blocks of the last request the fake API received, by tool_use id. */
function toolResults(api: FakeApi): Record<string, { content: unknown; is_error?: boolean }> {
  const body = api.log[api.log.length - 1].body as Body;
  const results: Record<string, { content: unknown; is_error?: boolean }> = {};
  for (const message of body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') results[block.tool_use_id as string] = block as never;
  }
  return results;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((b) => (b.type === 'text' ? b.text : `<${b.type}>`)).join('\n');
}

const allow = async () => ({ behavior: 'allow' as const });

describe('MCP tools from server-everything (stdio)', () => {
  let mcp: McpToolSet;
  beforeAll(async () => {
    mcp = await mcpTools({ servers: { everything: everythingServer() } });
  });
  afterAll(async () => mcp?.close());

  it('offers the server tools to the model under mcp__everything__*, with the server JSON Schemas', async () => {
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'ok' }] }] });
    try {
      await runLoopToEnd({ prompt: 'hi', tools: mcp.tools, deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) } });
      const offered = (api.log[0].body as Body).tools ?? [];
      const echo = offered.find((t) => t.name === 'mcp__everything__echo');
      expect(echo?.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
      expect(echo?.input_schema).not.toHaveProperty('$schema');
      expect(offered.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__everything__get-sum', 'mcp__everything__get-tiny-image']));
      expect(offered.every((t) => t.name.startsWith('mcp__everything__'))).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('turns text, image, resource, link, structured and progress results into tool results, and explains bad input', async () => {
    const call = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name: `mcp__everything__${name}`, input });
    const api = await startFakeAnthropicApi({
      model: [
        {
          content: [
            call('t_echo', 'echo', { message: 'hello mcp' }),
            call('t_image', 'get-tiny-image', {}),
            call('t_sum_bad', 'get-sum', { a: 'one', b: 2 }),
            call('t_sum', 'get-sum', { a: 40, b: 2 }),
            call('t_struct', 'get-structured-content', { location: 'Chicago' }),
            call('t_resource', 'get-resource-reference', { resourceType: 'Text', resourceId: 3 }),
            call('t_links', 'get-resource-links', { count: 1 }),
            call('t_long', 'trigger-long-running-operation', { duration: 0.3, steps: 3 }),
          ],
        },
        { content: [{ type: 'text', text: 'All done.' }] },
      ],
    });
    try {
      const { items, terminal } = await runLoopToEnd({
        prompt: 'use the tools',
        tools: mcp.tools,
        canUseTool: allow,
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }), newId: counterIds('e') },
      });
      expect(terminal).toEqual({ reason: 'completed' });
      const results = toolResults(api);
      expect(results.t_echo).toMatchObject({ content: 'Echo: hello mcp' });
      expect(results.t_echo.is_error).toBeFalsy();

      const image = (results.t_image.content as Array<Record<string, unknown>>).find((b) => b.type === 'image');
      expect(image).toMatchObject({ source: { type: 'base64', media_type: 'image/png' } });
      expect(Buffer.from((image?.source as { data: string }).data, 'base64').subarray(1, 4).toString()).toBe('PNG');

      expect(results.t_sum_bad.is_error).toBe(true);
      expect(textOf(results.t_sum_bad.content)).toBe('Error: the input for mcp__everything__get-sum is invalid:\n- a: must be number');
      expect(textOf(results.t_sum.content)).toContain('42');

      expect(textOf(results.t_struct.content)).toMatch(/temperature/i);
      expect(textOf(results.t_resource.content)).toMatch(/\[resource demo:\/\/resource\/static\/document\/|\[resource [^\]]+3/);
      expect(textOf(results.t_links.content)).toContain('[resource link: ');
      expect(textOf(results.t_long.content)).toContain('Long running operation completed');

      const progress = items.filter((i) => i.type === 'system' && (i as { data?: { kind?: string } }).data?.kind === 'tool_progress');
      // The SDK dispatches notifications a tick later than responses, so a progress notification sent right before
      // the result (step 3 of 3) can be dropped; the earlier ones arrive, in order.
      const texts = progress.map((p) => (p as { content: string }).content);
      expect(texts.slice(0, 2)).toEqual(['progress 1/3', 'progress 2/3']);
      expect(texts.length).toBeLessThanOrEqual(3);
    } finally {
      await api.close();
    }
  });

  it('gives an error result when a call times out or is aborted, and the loop goes on', async () => {
    const slow = await mcpTools({ servers: { slow: everythingServer() }, toolTimeoutMs: 300 });
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 't_slow', name: 'mcp__slow__trigger-long-running-operation', input: { duration: 5, steps: 5 } }] },
        { content: [{ type: 'text', text: 'It timed out.' }] },
      ],
    });
    try {
      const started = performance.now();
      const { terminal } = await runLoopToEnd({
        prompt: 'wait',
        tools: slow.tools,
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      expect(terminal).toEqual({ reason: 'completed' });
      expect(performance.now() - started).toBeLessThan(4_000);
      const result = toolResults(api).t_slow;
      expect(result.is_error).toBe(true);
      expect(textOf(result.content)).toBe('Error: MCP server "slow", tool "trigger-long-running-operation": no answer within 300 ms (request timed out)');

      // The server is still up: the next call works.
      const echo = slow.tools.find((t) => t.name === 'mcp__slow__echo');
      const controller = new AbortController();
      const updates = [];
      for await (const u of echo?.call({ message: 'still here' }, { toolUseId: 'x', idempotencyKey: 'x', signal: controller.signal, context: {} }) as AsyncIterable<unknown>) updates.push(u);
      expect(updates).toEqual([{ type: 'result', result: { content: 'Echo: still here' } }]);

      // An aborted call ends at once with a cancelled result.
      const long = slow.tools.find((t) => t.name === 'mcp__slow__trigger-long-running-operation');
      const abort = new AbortController();
      setTimeout(() => abort.abort('user'), 100);
      const t0 = performance.now();
      const aborted = [];
      for await (const u of long?.call({ duration: 5, steps: 5 }, { toolUseId: 'y', idempotencyKey: 'y', signal: abort.signal, context: {} }) as AsyncIterable<unknown>) aborted.push(u);
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(aborted.at(-1)).toEqual({ type: 'result', result: { content: 'Error: MCP server "slow", tool "trigger-long-running-operation": cancelled', isError: true } });
    } finally {
      await api.close();
      await slow.close();
    }
  });

  it('gives an error result, not a crash, when the server process dies', async () => {
    const doomed = await mcpTools({ servers: { doomed: everythingServer() } });
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 't_dead', name: 'mcp__doomed__echo', input: { message: 'anyone?' } }] },
        { content: [{ type: 'text', text: 'The server is gone.' }] },
      ],
    });
    try {
      const pid = doomed.servers[0].pid as number;
      expect(pid).toBeGreaterThan(0);
      const exited = new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (doomed.servers[0].closedBecause) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      process.kill(pid, 'SIGKILL');
      await exited;
      const { terminal } = await runLoopToEnd({
        prompt: 'echo',
        tools: doomed.tools,
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      expect(terminal).toEqual({ reason: 'completed' });
      const result = toolResults(api).t_dead;
      expect(result.is_error).toBe(true);
      expect(textOf(result.content)).toMatch(/^Error: MCP server "doomed", tool "echo": the server is not connected \(the server closed the connection/);
    } finally {
      await api.close();
      await doomed.close();
    }
  });
});
