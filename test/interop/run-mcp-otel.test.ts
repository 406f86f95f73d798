/**
 * `turnloop run --mcp-config servers.json --otel`, end to end and offline: the real Anthropic SDK aimed at the
 * loopback fake API, the real server-filesystem started from the config file, and the real OTLP/HTTP exporter
 * sending to a loopback receiver named by OTEL_EXPORTER_OTLP_ENDPOINT; the receiver decodes the wire format and the
 * span tree is checked there. (Moved from test/unit/otel/run-integrations.test.ts, which keeps the bad-input cases.)
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../src/fake-api/index.ts';
import { runCli } from '../unit/cli/capture-io.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../unit/otel/otlp-receiver.ts';
import { filesystemServer } from './mcp-servers.ts';

describe('turnloop run with MCP servers and OpenTelemetry export', () => {
  let project: string;
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    project = mkdtempSync(join(tmpdir(), 'turnloop-run-mcp-'));
    writeFileSync(join(project, 'a.txt'), 'alpha\n');
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('offers the MCP tools beside the file tools, runs them, and exports the spans over OTLP/HTTP', async () => {
    const config = join(project, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { fs: filesystemServer(project) } }));
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_ls', name: 'mcp__fs__list_directory', input: { path: project } }] },
        { content: [{ type: 'text', text: 'The project has a.txt and servers.json.' }] },
      ],
    });
    try {
      const result = await runCli(['run', 'what is in the project?', '--cwd', project, '--mcp-config', config, '--otel'], {
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'run-test' },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('terminal: completed');

      const offered = (api.requests[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(offered).toEqual(expect.arrayContaining(['Read', 'Edit', 'Glob', 'Grep', 'mcp__fs__list_directory', 'mcp__fs__write_file']));
      const second = JSON.stringify((api.requests[1] as { messages: unknown }).messages);
      expect(second).toContain('[FILE] a.txt');

      expect(receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType?.startsWith('application/json'))).toBe(true);
      const spans = receiver.spans;
      const agent = spans.find((s) => s.name === 'invoke_agent turnloop');
      expect(agent?.parentSpanId).toBeUndefined();
      expect(agent?.resource['service.name']).toBe('run-test');
      expect(agent?.attributes['turnloop.query_source']).toBe('repl_main_thread');
      expect(spans.map((s) => s.name).sort()).toEqual(['chat claude-sonnet-4-6', 'chat claude-sonnet-4-6', 'execute_tool mcp__fs__list_directory', 'invoke_agent turnloop']);
      for (const span of spans.filter((s) => s !== agent)) {
        expect(span.parentSpanId).toBe(agent?.spanId);
        expect(span.traceId).toBe(agent?.traceId);
      }
      const tool = spans.find((s) => s.name.startsWith('execute_tool'));
      expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.name': 'mcp__fs__list_directory', 'gen_ai.tool.call.id': 'toolu_ls' });
      const chat = spans.find((s) => s.name.startsWith('chat'));
      expect(chat?.kind).toBe(3); // OTLP's SPAN_KIND_CLIENT
      expect(chat?.attributes['gen_ai.response.finish_reasons']).toEqual(expect.any(Array));
      expect(agent?.events.filter((e) => e.name === 'transition').at(-1)?.attributes['turnloop.terminal.reason']).toBe('completed');
      // The server process is gone after the run: nothing left behind in the project but what was there.
      expect(readdirSync(project).sort()).toEqual(['a.txt', 'servers.json']);
    } finally {
      await api.close();
    }
  });
});
