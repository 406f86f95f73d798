/**
 * The built entry points `turnloop/mcp` and `turnloop/otel` (package `exports`), in plain Node: they load and
 * export the same names as their sources; and the root entry loads neither the OpenTelemetry mapping nor the MCP
 * client unless a run asks for telemetry (a module-resolution hook lists what is loaded).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as mcpSource from '../../../src/mcp/index.ts';
import * as otelSource from '../../../src/otel/index.ts';

const run = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;
const OTEL_API = createRequire(join(ROOT, 'package.json')).resolve('@opentelemetry/api');

describe('the built integration entry points', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'turnloop-entry-'));
    writeFileSync(
      join(dir, 'hook.mjs'),
      `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/\\/dist\\/(otel|mcp)\\/|@modelcontextprotocol|\\/node_modules\\/ajv\\//.test(resolved.url)) process.stderr.write('LOADED ' + resolved.url + '\\n');
  return resolved;
}\n`,
    );
    // One process per case: the hook runs on its own thread, so the order of its lines says nothing.
    writeFileSync(
      join(dir, 'root-run.mjs'),
      `import { register } from 'node:module';
register(${JSON.stringify(`file://${join(dir, 'hook.mjs')}`)});
const t = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const api = await t.startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'ok' }] }] });
const callModel = t.createAnthropicModelCaller({ apiKey: 'x', baseURL: api.baseURL });
const telemetry = process.argv[2] === 'traced' ? { tracer: (await import(${JSON.stringify(OTEL_API)})).trace.getTracer('t') } : undefined;
const { terminal } = await t.runQuery({ prompt: 'hi', deps: { callModel }, ...(telemetry ? { telemetry } : {}) });
process.stderr.write('RUN ' + terminal.reason + '\\n');
await api.close();
`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolve as turnloop/mcp and turnloop/otel with the exports of their sources', async () => {
    const script = "const m = await import('turnloop/mcp'); const o = await import('turnloop/otel'); console.log(JSON.stringify([Object.keys(m).sort(), Object.keys(o).sort()]));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual([Object.keys(mcpSource).sort(), Object.keys(otelSource).sort()]);
  });

  it('leave the root entry light: the span mapping loads only for a run with telemetry, the MCP client never', async () => {
    const loaded = async (mode: string) => {
      const { stderr } = await run(process.execPath, [join(dir, 'root-run.mjs'), mode], { cwd: ROOT });
      expect(stderr).toContain('RUN completed');
      return stderr.split('\n').filter((line) => line.startsWith('LOADED'));
    };
    expect(await loaded('plain')).toEqual([]);
    const traced = await loaded('traced');
    expect(traced.some((line) => line.endsWith('/dist/otel/trace-run.js'))).toBe(true);
    expect(traced.filter((line) => /@modelcontextprotocol|\/dist\/mcp\//.test(line))).toEqual([]);
  });
});
