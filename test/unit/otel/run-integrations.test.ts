/**
 * `turnloop run --mcp-config servers.json --otel`: bad flags and files exit 2 with one clear message. The end-to-end
 * run with the real server-filesystem and the OTLP/HTTP exporter is in test/interop/run-mcp-otel.test.ts (it needs
 * the MCP reference server, installed by `npm run test:interop`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otlpSettingsFromEnv } from '../../../src/otel/index.ts';
import { runCli } from '../cli/capture-io.ts';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts';

describe('turnloop run with MCP servers and OpenTelemetry export: bad input', () => {
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
