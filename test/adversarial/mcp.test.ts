/**
 * MCP servers cannot freeze or confuse the loop (issue 29, item 2): a schema `pattern` such as `^(a+)+$` runs on
 * the linear engine; a server named `__proto__` or `constructor` is refused by name (exit 2); names the API would
 * refuse (over 64 characters) or that collide after normalising are mapped to unique valid names, and calls still
 * reach the server under its own names; a server that ignores SIGTERM does not outlive its connection or a forced
 * exit. The server is `fixtures/hostile-mcp-server.mjs`, a real MCP server over stdio.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import { mcpTools } from '../../src/mcp/mcp-tools.ts';
import { scriptedModelCaller } from '../../src/replay/scripted-deps.ts';
import { REPO_ROOT, runCli } from '../unit/cli/capture-io.ts';

const SERVER = new URL('./fixtures/hostile-mcp-server.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'turnloop-mcp-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hostile = (tools: unknown[], mode = '') => ({ command: process.execPath, args: [SERVER, JSON.stringify(tools), mode] });
const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return condition();
}

describe('hostile MCP servers', () => {
  it('a catastrophic schema pattern is checked in linear time (the call is refused at once, not hung)', async () => {
    const mcp = await mcpTools({ servers: { evil: hostile([{ name: 'match', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } }]) } });
    try {
      const [tool] = mcp.tools;
      const started = Date.now();
      const result = tool!.inputSchema.safeParse({ s: `${'a'.repeat(5_000)}!` });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(result.success).toBe(false);
      expect(tool!.inputSchema.safeParse({ s: 'aaaa' }).success).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('a 200-character tool name and two names colliding after normalising: unique API-valid names, each call reaching its own tool', async () => {
    const long = `t${'x'.repeat(199)}`;
    const mcp = await mcpTools({ servers: { evil: hostile([{ name: long }, { name: 'a.b' }, { name: 'a_b' }]) } });
    try {
      const names = mcp.tools.map((t) => t.name);
      for (const name of names) expect(name).toMatch(API_NAME);
      expect(new Set(names).size).toBe(3);
      const replies = names.map((name, i) => ({ content: [{ type: 'tool_use' as const, id: `toolu_${i}`, name, input: {} }], stop_reason: 'tool_use' }));
      const { items, terminal } = await runLoopToEnd({
        prompt: 'call them',
        tools: mcp.tools,
        deps: { callModel: scriptedModelCaller([...replies, { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' }]) },
      });
      expect(terminal.reason).toBe('completed');
      const results = JSON.stringify(items.filter((item) => item.type === 'user'));
      for (const original of [long, 'a.b', 'a_b']) expect(results).toContain(`called ${original}`);
    } finally {
      await mcp.close();
    }
  });

  it.each(['__proto__', 'constructor', 'toString'])('a server named %s is refused by name: exit 2 before anything starts', async (name) => {
    const config = join(dir, `${name}.mcp.json`);
    writeFileSync(config, `{"mcpServers": {"${name}": {"command": "${process.execPath}", "args": ["-e", "0"]}}}`);
    const result = await runCli(['run', 'hi', '--mcp-config', config, '--no-record', '--cwd', dir], { cwd: dir, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.stderr).toContain(`mcpServers.${name}: "${name}" is a name every JavaScript object already has; rename the server`);
    expect(result.code).toBe(2);
    await expect(mcpTools({ servers: JSON.parse(`{"${name}": {"command": "node"}}`) as Record<string, { command: string }> })).rejects.toThrow(/is a name every JavaScript object already has/);
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('the headless executable refuses --mcp-config server %s by name too: exit 2, one line, before any request', async (name) => {
    const script = join(dir, 'headless-script.json');
    writeFileSync(script, JSON.stringify({ model: [{ content: [{ type: 'text', text: 'should not be asked' }] }] }));
    for (const value of [`{"mcpServers": {"${name}": {"command": "${process.execPath}", "args": ["-e", "0"]}}}`, join(dir, `${name}.mcp.json`)]) {
      writeFileSync(join(dir, `${name}.mcp.json`), `{"mcpServers": {"${name}": {"command": "${process.execPath}", "args": ["-e", "0"]}}}`);
      const result = await runCli(['-p', 'hi', '--mcp-config', value, '--fake-api', script, '--no-session-persistence'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`the server name "${name}" is a name every JavaScript object already has`)]);
      expect(result.stdout).toBe('');
    }
  });

  it('a server that ignores SIGTERM is killed when its connection closes', async () => {
    const mcp = await mcpTools({ servers: { stubborn: hostile([{ name: 'x' }], 'ignore-sigterm') } });
    const pid = mcp.servers[0]!.pid!;
    expect(isRunning(pid)).toBe(true);
    await mcp.close();
    expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
  });

  it('a forced exit (process.exit, as the second Ctrl-C does) still kills a server that ignores SIGTERM', async () => {
    const script = [
      `import { mcpTools } from ${JSON.stringify(new URL('../../src/mcp/mcp-tools.ts', import.meta.url).pathname)};`,
      `const mcp = await mcpTools({ servers: { stubborn: ${JSON.stringify(hostile([{ name: 'x' }], 'ignore-sigterm'))} } });`,
      `process.stdout.write(String(mcp.servers[0].pid));`,
      `process.exit(130);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect({ code, err }).toMatchObject({ code: 130 });
    const pid = Number(out);
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
  });
});
