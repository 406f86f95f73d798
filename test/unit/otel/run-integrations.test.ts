/**
 * `turnloop run --mcp-config servers.json --otel`, end to end and offline: the real Anthropic SDK aimed at the
 * loopback fake API, the real server-filesystem started from the config file, and the real OTLP/HTTP exporter
 * sending to a loopback receiver named by OTEL_EXPORTER_OTLP_ENDPOINT; the receiver decodes the wire format and the
 * span tree is checked there. Bad flags and files exit 2 with one clear message.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { otlpSettingsFromEnv } from '../../../src/otel/index.ts';
import { runCli } from '../cli/capture-io.ts';
import { filesystemServer } from '../mcp/servers.ts';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts';

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

  it('says what is wrong with a bad --mcp-config file (exit 2)', async () => {
    const env = { ANTHROPIC_API_KEY: 'k' };
    const missing = await runCli(['run', 'hi', '--cwd', project, '--mcp-config', 'nope.json'], { env, cwd: project });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`turnloop run: --mcp-config: cannot read ${join(project, 'nope.json')}: ENOENT\n`);

    writeFileSync(join(project, 'bad.json'), JSON.stringify({ mcpServers: { fs: { args: [] } } }));
    const bad = await runCli(['run', 'hi', '--cwd', project, '--mcp-config', 'bad.json'], { env, cwd: project });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('mcpServers.fs.command: Invalid input: expected string, received undefined');

    writeFileSync(join(project, 'dead.json'), JSON.stringify({ mcpServers: { ghost: { command: join(project, 'no-such-server') } } }));
    const dead = await runCli(['run', 'hi', '--cwd', project, '--mcp-config', 'dead.json'], { env, cwd: project });
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/^turnloop run: --mcp-config: MCP server "ghost": could not connect: .*ENOENT/);
  });

  it('refuses an OTLP protocol it cannot send (exit 2), before anything starts', async () => {
    const result = await runCli(['run', 'hi', '--cwd', project, '--otel'], { env: { ANTHROPIC_API_KEY: 'k', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('turnloop run: --otel: OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; turnloop exports OTLP over HTTP as JSON (use http/json)\n');
    expect(receiver.requests).toEqual([]);
  });
});

describe('otlpSettingsFromEnv', () => {
  it('follows the OTEL_EXPORTER_OTLP_* variables, the traces-specific ones first', () => {
    expect(otlpSettingsFromEnv({})).toMatchObject({ endpoint: 'http://localhost:4318/v1/traces', headers: {}, serviceName: 'turnloop' });
    expect(otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/' }).endpoint).toBe('http://127.0.0.1:9/v1/traces');
    expect(otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:2/custom' }).endpoint).toBe('http://b:2/custom');
    expect(otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b, x=1' }).headers).toEqual({ 'api-key': 'a b', x: '1' });
    expect(otlpSettingsFromEnv({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=core' })).toMatchObject({ serviceName: 'from-attrs', resource: { team: 'core' } });
    expect(otlpSettingsFromEnv({ OTEL_SERVICE_NAME: 'named', OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs' }).serviceName).toBe('named');
    expect(otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }).protocolNote).toContain('sending http/json');
  });

  it('names the variable and what was expected when a value is bad', () => {
    expect(() => otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT: expected an http\(s\) URL/);
    expect(() => otlpSettingsFromEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/^OTEL_EXPORTER_OTLP_HEADERS: expected key=value pairs/);
  });
});
