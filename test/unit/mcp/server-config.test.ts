/** `.mcp.json` (Claude Code's shape) as `turnloop run --mcp-config` reads it: servers, `${VAR}` expansion, errors. */
import { describe, expect, it } from 'vitest';
import { McpConfigError, parseMcpConfig } from '../../../src/mcp/index.ts';

const parse = (value: unknown, env: Record<string, string> = {}) => parseMcpConfig(JSON.stringify(value), 'servers.json', env);

function problems(value: unknown, env: Record<string, string> = {}): string[] {
  try {
    parse(value, env);
  } catch (error) {
    if (error instanceof McpConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected an McpConfigError');
}

describe('parseMcpConfig', () => {
  it('reads stdio and http servers, a url alone meaning http', () => {
    expect(
      parse({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { LEVEL: 'debug' } },
          web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
          bare: { url: 'http://127.0.0.1:9/other' },
        },
      }),
    ).toEqual({
      fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { LEVEL: 'debug' } },
      web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
      bare: { type: 'http', url: 'http://127.0.0.1:9/other' },
    });
  });

  it('expands ${VAR} and ${VAR:-default} in command, args, env, url and headers', () => {
    const servers = parse(
      {
        mcpServers: {
          a: { command: '${BIN}', args: ['--root=${ROOT:-/tmp}'], env: { TOKEN: '${TOKEN}' } },
          b: { type: 'http', url: 'http://127.0.0.1:${PORT}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      },
      { BIN: 'node', TOKEN: 's3cret', PORT: '8123' },
    );
    expect(servers).toEqual({
      a: { command: 'node', args: ['--root=/tmp'], env: { TOKEN: 's3cret' } },
      b: { type: 'http', url: 'http://127.0.0.1:8123/mcp', headers: { Authorization: 'Bearer s3cret' } },
    });
  });

  it('names every problem with its place and what was expected', () => {
    expect(problems({ servers: {} })).toEqual(['mcpServers: Invalid input: expected record, received undefined', '(top level): Unrecognized key: "servers"']);
    expect(problems({ mcpServers: { web: { type: 'http', url: 'not a url' } } })).toEqual([
      'mcpServers.web.url: expected a URL such as http://127.0.0.1:3000/mcp, got "not a url"',
    ]);
    expect(problems({ mcpServers: { fs: { args: ['x'] } } })).toEqual(['mcpServers.fs.command: Invalid input: expected string, received undefined']);
    expect(problems({ mcpServers: { old: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } })).toEqual([
      'mcpServers.old.type: the deprecated SSE transport is not supported; use "http" (Streamable HTTP)',
    ]);
    expect(problems({ mcpServers: { 'bad name': { command: 'x' } } })[0]).toMatch(/^mcpServers\.bad name: a server name of letters/);
    expect(problems({ mcpServers: { a: { command: '${NOPE}' } } })).toEqual(['mcpServers.a.command: ${NOPE} is not set and has no default']);
  });

  it('says when the file is not JSON', () => {
    expect(() => parseMcpConfig('{ nope', 'servers.json', {})).toThrow(/^servers\.json is not a valid MCP server config:\n- not JSON: /);
  });
});
