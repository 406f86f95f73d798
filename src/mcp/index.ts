/**
 * `turnloop/mcp`: tools from Model Context Protocol servers (stdio and Streamable HTTP), through the official
 * `@modelcontextprotocol/sdk` client (an optional peer dependency, loaded only when a server is connected).
 */
export { mcpTools, McpConnectError, DEFAULT_MCP_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TOOL_TIMEOUT_MS } from './mcp-tools.ts';
export type { McpToolsOptions, McpToolSet, McpServerStatus } from './mcp-tools.ts';
export { parseMcpConfig, McpConfigError, type McpServerSpec, type McpStdioServer, type McpHttpServer } from './server-config.ts';
export { mcpToolName } from './mcp-tool.ts';
export { toolResultOfMcp } from './tool-result.ts';
