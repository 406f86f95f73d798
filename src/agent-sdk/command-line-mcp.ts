/**
 * The MCP servers a program configures for the executable itself (stdio and HTTP): `--mcp-config` (a file or the
 * JSON text the SDK writes, `{"mcpServers": {...}}`) and the `mcpServers` of the `initialize` request (the SDK's
 * default delivery). They connect through `turnloop/mcp`; `sdk` entries are the in-process servers of
 * `sdk-mcp-servers.ts` and are skipped here. A config that cannot be read or a server that cannot start is named
 * on stderr and reported `failed` in `init`: the turn runs without its tools, as the real executable does. A
 * server named as every JavaScript object's own members are (`__proto__`, `constructor`, ...) is refused by name:
 * exit 2 from `--mcp-config` (`McpServerNameError`), a `failed` server from `initialize`; never dropped in silence.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Tool } from '../tools/define-tool.ts';
import type { McpToolSet } from '../mcp/mcp-tools.ts';
import { messageOf } from '../errors/message-of.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** A `--mcp-config` server whose name every object already has. Bad input: exit 2. */
export class McpServerNameError extends TurnloopError {
  readonly exitCode = 2;
  constructor(name: string, value: string) {
    super('MCP_SERVER_NAME', `--mcp-config ${value.slice(0, 80)}: the server name "${name}" is a name every JavaScript object already has; rename the server`);
    this.name = 'McpServerNameError';
  }
}

export interface CommandLineMcp {
  tools(): Tool[];
  servers: Array<{ name: string; status: 'connected' | 'failed' }>;
  close(): Promise<void>;
}

/** The `mcpServers` object of each `--mcp-config` value (a path or JSON text). */
export function mcpServersOfFlags(values: readonly string[], cwd: string, warn: (text: string) => void): Record<string, unknown> {
  // No prototype: a server named `__proto__` must be a key like any other until it is refused.
  const servers = Object.create(null) as Record<string, unknown>;
  for (const value of values) {
    let configured: Record<string, unknown>;
    try {
      const text = value.trimStart().startsWith('{') || !existsSync(resolve(cwd, value)) ? value : readFileSync(resolve(cwd, value), 'utf8');
      const parsed = JSON.parse(text) as { mcpServers?: unknown } | null;
      const listed = parsed?.mcpServers ?? {};
      if (typeof listed !== 'object' || listed === null || Array.isArray(listed)) throw new TurnloopError('MCP_CONFIG_INVALID', 'mcpServers must be an object of servers by name');
      configured = listed as Record<string, unknown>;
    } catch (error) {
      warn(`--mcp-config: cannot read ${value.slice(0, 80)}: ${messageOf(error)}`);
      continue;
    }
    for (const name of Object.keys(configured)) {
      if (name in Object.prototype) throw new McpServerNameError(name, value);
      servers[name] = configured[name];
    }
  }
  return servers;
}

export async function connectCommandLineMcp(configured: Record<string, unknown>, env: Record<string, string | undefined>, warn: (text: string) => void): Promise<CommandLineMcp> {
  const sets: McpToolSet[] = [];
  const servers: CommandLineMcp['servers'] = [];
  const names = Object.keys(configured).filter((name) => (configured[name] as { type?: unknown } | null)?.type !== 'sdk');
  if (names.length > 0) {
    const [{ mcpTools }, { parseMcpConfig }] = await Promise.all([import('../mcp/mcp-tools.ts'), import('../mcp/server-config.ts')]);
    // One connection per server, so one that fails leaves the others up.
    for (const name of names) {
      try {
        const specs = parseMcpConfig(JSON.stringify({ mcpServers: { [name]: configured[name] } }), `the MCP server ${name}`, env);
        sets.push(await mcpTools({ servers: specs }));
        servers.push({ name, status: 'connected' });
      } catch (error) {
        warn(`the MCP server '${name}' is not connected: ${messageOf(error)}`);
        servers.push({ name, status: 'failed' });
      }
    }
  }
  return {
    tools: () => sets.flatMap((set) => set.tools),
    servers,
    async close() {
      await Promise.all(sets.map((set) => set.close()));
    },
  };
}
