/**
 * The headless CLI's `--mcp-config` with the real server-filesystem over stdio (moved from
 * test/unit/agent-sdk/sdk-mcp.test.ts: it needs the MCP reference server, installed by `npm run test:interop`).
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, writeScript, tempProject } from '../unit/agent-sdk/headless-harness.ts';
import { filesystemServer } from './mcp-servers.ts';

describe('MCP servers of the command line', () => {
  it('--mcp-config (JSON text, as the SDK writes it) connects a stdio server and offers its tools', async () => {
    const cwd = tempProject();
    writeFileSync(`${cwd}/note.txt`, 'from the filesystem server');
    const config = JSON.stringify({ mcpServers: { fs: { type: 'stdio', ...filesystemServer(cwd) } } });
    const script = {
      model: [
        { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'mcp__fs__read_text_file', input: { path: `${cwd}/note.txt` } }] },
        { content: [{ type: 'text' as const, text: 'read it' }] },
      ],
    };
    const run = await runHeadless([...SDK_ARGS, '--mcp-config', config, '--allowedTools', 'mcp__fs', '--fake-api', writeScript(cwd, script)], { cwd });
    const init = run.lines.find((l) => l.subtype === 'init');
    expect(init?.mcp_servers).toEqual([{ name: 'fs', status: 'connected' }]);
    const result = run.lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content)[0];
    expect(JSON.stringify(result.content)).toContain('from the filesystem server');
  });
});
