/** Where the MCP servers from npm live, and how the tests start them (over stdio, as child processes). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer() {
  return { command: process.execPath, args: [join(packageDir('@modelcontextprotocol/server-everything'), 'dist/index.js'), 'stdio'] };
}

/** `@modelcontextprotocol/server-filesystem` allowed into `root` only. */
export function filesystemServer(root: string) {
  return { command: process.execPath, args: [join(packageDir('@modelcontextprotocol/server-filesystem'), 'dist/index.js'), root] };
}
