/**
 * MCP tools against the real `@modelcontextprotocol/server-filesystem`, confined to a temp directory and driven by
 * a scripted model: read-only tools run without asking and may run together; a destructive tool needs permission
 * (denied when nobody can grant it, granted through the same prompt `turnloop run` uses for its file tools); a
 * server-side failure reaches the model as an error result.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionPrompt } from '../../src/cli/run/permission-prompt.ts';
import { createAnthropicModelCaller } from '../../src/model/index.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import type { CanUseTool } from '../../src/tools/call-deps.ts';
import { startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../src/fake-api/index.ts';
import { mcpTools, type McpToolSet } from '../../src/mcp/index.ts';
import { filesystemServer } from './mcp-servers.ts';

type ResultBlock = { type: string; tool_use_id: string; content: unknown; is_error?: boolean };

function lastResults(api: FakeApi): Record<string, ResultBlock> {
  const body = api.log[api.log.length - 1].body as { messages: Array<{ content: string | ResultBlock[] }> };
  const out: Record<string, ResultBlock> = {};
  for (const m of body.messages) if (typeof m.content !== 'string') for (const b of m.content) if (b.type === 'tool_result') out[b.tool_use_id] = b;
  return out;
}

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n');
}

describe('MCP tools from server-filesystem (stdio, temp directory)', () => {
  let root: string;
  let mcp: McpToolSet;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'turnloop-mcp-fs-'));
    writeFileSync(join(root, 'notes.txt'), 'first line\nsecond line\n');
    mcp = await mcpTools({ servers: { fs: filesystemServer(root) } });
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function run(script: FakeScriptInput, canUseTool?: CanUseTool) {
    const api = await startFakeAnthropicApi(script);
    try {
      const outcome = await runLoopToEnd({
        prompt: 'work on the files',
        tools: mcp.tools,
        ...(canUseTool ? { canUseTool } : {}),
        deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      return { ...outcome, results: lastResults(api) };
    } finally {
      await api.close();
    }
  }

  it('maps the annotations: read-only tools are concurrency-safe, write tools are not', () => {
    const tool = (name: string) => mcp.tools.find((t) => t.name === `mcp__fs__${name}`);
    const path = join(root, 'notes.txt');
    expect(tool('read_text_file')?.isReadOnly({ path })).toBe(true);
    expect(tool('read_text_file')?.isConcurrencySafe({ path })).toBe(true);
    expect(tool('write_file')?.isReadOnly({ path, content: 'x' })).toBe(false);
    expect(tool('write_file')?.isConcurrencySafe({ path, content: 'x' })).toBe(false);
  });

  it('reads without asking, creates a non-destructive directory, and denies a destructive write nobody approved', async () => {
    const { terminal, results } = await run({
      model: [
        {
          content: [
            { type: 'tool_use', id: 't_read', name: 'mcp__fs__read_text_file', input: { path: join(root, 'notes.txt') } },
            { type: 'tool_use', id: 't_mkdir', name: 'mcp__fs__create_directory', input: { path: join(root, 'made') } },
            { type: 'tool_use', id: 't_write', name: 'mcp__fs__write_file', input: { path: join(root, 'notes.txt'), content: 'overwritten' } },
            { type: 'tool_use', id: 't_missing', name: 'mcp__fs__read_text_file', input: { path: join(root, 'absent.txt') } },
          ],
        },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
    });
    expect(terminal).toEqual({ reason: 'completed' });
    expect(text(results.t_read.content)).toBe('first line\nsecond line\n');
    expect(statSync(join(root, 'made')).isDirectory()).toBe(true);
    expect(results.t_write.is_error).toBe(true);
    expect(text(results.t_write.content)).toMatch(/^Permission to use mcp__fs__write_file was denied: .*needs approval/);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
    expect(results.t_missing.is_error).toBe(true);
    expect(text(results.t_missing.content)).toMatch(/ENOENT|no such file/i);
  });

  it('writes once the user answers yes at the permission prompt of turnloop run', async () => {
    const asked: string[] = [];
    const output = new Writable({ write: (chunk, _enc, done) => (asked.push(String(chunk)), done()) });
    const prompt = createPermissionPrompt({ yes: false, streams: { input: Readable.from(['y\n']), output } });
    const { results } = await run(
      {
        model: [
          { content: [{ type: 'tool_use', id: 't_write', name: 'mcp__fs__write_file', input: { path: join(root, 'new.txt'), content: 'approved' } }] },
          { content: [{ type: 'text', text: 'Written.' }] },
        ],
      },
      prompt,
    );
    expect(results.t_write.is_error).toBeFalsy();
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('approved');
    expect(asked.join('')).toContain('Allow mcp__fs__write_file');
  });
});
