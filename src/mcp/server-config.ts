/**
 * Which MCP servers to connect to: the `servers` option of `mcpTools()`, and the `.mcp.json` file of Claude Code
 * (`{ "mcpServers": { name: spec } }`) that `turnloop run --mcp-config` reads.
 *
 * Invariants:
 * - a file is validated once, here; every error names the file, the place (`mcpServers.fs.command`) and what was
 *   expected there;
 * - `${VAR}` and `${VAR:-default}` in `command`, `args`, `env`, `url` and `headers` are expanded from the given
 *   environment, as Claude Code does; a variable that is unset and has no default is an error, not an empty string.
 */
import { z } from 'zod';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { messageOf } from '../errors/message-of.ts';

/** A server started as a child process, spoken to over stdin/stdout. */
export interface McpStdioServer {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the few variables the MCP SDK passes on by default (HOME, PATH, USER, ...), not to all of ours. */
  env?: Record<string, string>;
  cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  type?: 'http';
  url: string;
  headers?: Record<string, string>;
}

export type McpServerSpec = McpStdioServer | McpHttpServer;

export class McpConfigError extends TurnloopError {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super('MCP_CONFIG_INVALID', `${source} is not a valid MCP server config:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'McpConfigError';
  }
}

const stringRecord = z.record(z.string(), z.string());

const stdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringRecord.optional(),
  cwd: z.string().optional(),
});

const httpSchema = z.strictObject({
  type: z.literal('http'),
  url: z.string().min(1),
  headers: stringRecord.optional(),
});

const serverSchema = z.unknown().transform((value, ctx): McpServerSpec => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'expected a server object ({command, args, env} or {type: "http", url, headers})' });
    return z.NEVER;
  }
  const type = (value as { type?: unknown }).type;
  if (type === 'sse') {
    ctx.addIssue({ code: 'custom', path: ['type'], message: 'the deprecated SSE transport is not supported; use "http" (Streamable HTTP)' });
    return z.NEVER;
  }
  if (type !== undefined && type !== 'stdio' && type !== 'http') {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `expected "stdio" or "http", got ${JSON.stringify(type)}` });
    return z.NEVER;
  }
  const schema = type === 'http' || (type === undefined && 'url' in value && !('command' in value)) ? httpSchema : stdioSchema;
  const parsed = schema.safeParse(type === undefined && schema === httpSchema ? { ...value, type: 'http' } : value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return parsed.data;
});

const serversSchema = z.record(z.string(), serverSchema).superRefine((servers, ctx) => {
  for (const name of Object.keys(servers)) {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'a server name of letters, digits, _ and - only' });
  }
});
const fileSchema = z.strictObject({ mcpServers: serversSchema });

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.') || '(top level)';
}

function problemsOf(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((issue) => `${formatPath([...(prefix ? [prefix] : []), ...issue.path])}: ${issue.message}`);
}

/**
 * Names every object already has (`__proto__`, `constructor`, `toString`, …): a server of that name would be
 * dropped or confused by any plain object keyed by name on the way, so it is refused here, by name.
 */
function inheritedNameProblems(servers: unknown, prefix: string): string[] {
  if (servers === null || typeof servers !== 'object') return [];
  return Object.keys(servers)
    .filter((name) => name in Object.prototype)
    .map((name) => `${prefix}${name}: "${name}" is a name every JavaScript object already has; rename the server`);
}

/** Checks the `servers` given to `mcpTools()` (the same rules as a file's `mcpServers`). */
export function checkMcpServers(servers: unknown, source: string): Record<string, McpServerSpec> {
  const inherited = inheritedNameProblems(servers, 'servers.');
  if (inherited.length > 0) throw new McpConfigError(source, inherited);
  const parsed = serversSchema.safeParse(servers);
  if (!parsed.success) throw new McpConfigError(source, problemsOf(parsed.error, 'servers'));
  return parsed.data;
}

/**
 * Parses the text of a `.mcp.json` file into server specs, with `${VAR}` expanded from `env`.
 *
 * @example
 * const servers = parseMcpConfig(readFileSync('.mcp.json', 'utf8'), '.mcp.json', process.env);
 * const mcp = await mcpTools({ servers });
 */
export function parseMcpConfig(text: string, source: string, env: Readonly<Record<string, string | undefined>>): Record<string, McpServerSpec> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(source, [`not JSON: ${messageOf(error)}`]);
  }
  const inherited = inheritedNameProblems((json as { mcpServers?: unknown } | null)?.mcpServers, 'mcpServers.');
  if (inherited.length > 0) throw new McpConfigError(source, inherited);
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new McpConfigError(source, problemsOf(parsed.error, ''));
  }
  const problems: string[] = [];
  const servers: Record<string, McpServerSpec> = {};
  for (const [name, spec] of Object.entries(parsed.data.mcpServers)) {
    servers[name] = expandServer(spec, env, (where, problem) => problems.push(`mcpServers.${name}.${where}: ${problem}`));
  }
  if (problems.length > 0) throw new McpConfigError(source, problems);
  return servers;
}

type Problem = (where: string, problem: string) => void;

function expandServer(spec: McpServerSpec, env: Readonly<Record<string, string | undefined>>, problem: Problem): McpServerSpec {
  const expand = (value: string, where: string) =>
    expandVariables(value, env, (variable) => problem(where, `\${${variable}} is not set and has no default`));
  const expandRecord = (record: Record<string, string> | undefined, where: string) =>
    record && Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value, `${where}.${key}`)]));
  if ('url' in spec) {
    const url = expand(spec.url, 'url');
    if (!URL.canParse(url)) problem('url', `expected a URL such as http://127.0.0.1:3000/mcp, got ${JSON.stringify(url)}`);
    return { ...spec, url, ...(spec.headers ? { headers: expandRecord(spec.headers, 'headers') } : {}) };
  }
  return {
    ...spec,
    command: expand(spec.command, 'command'),
    ...(spec.args ? { args: spec.args.map((arg, i) => expand(arg, `args[${i}]`)) } : {}),
    ...(spec.env ? { env: expandRecord(spec.env, 'env') } : {}),
  };
}

/** `${VAR}` and `${VAR:-default}`, as in Claude Code's `.mcp.json`. */
export function expandVariables(value: string, env: Readonly<Record<string, string | undefined>>, onMissing: (variable: string) => void): string {
  return value.replace(/\$\{([^}:]+)(?::-([^}]*))?\}/g, (whole, variable: string, fallback: string | undefined) => {
    const set = env[variable];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    onMissing(variable);
    return whole;
  });
}
