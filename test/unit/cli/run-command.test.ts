/** `turnloop run` without an API key: one clear paragraph that points to `turnloop demo`, exit 2, no network. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MISSING_KEY_MESSAGE } from '../../../src/cli/commands/run.ts';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { runCli } from './capture-io.ts';

describe('turnloop run', () => {
  it('without ANTHROPIC_API_KEY explains what to do and points to turnloop demo (exit 2)', async () => {
    const result = await runCli(['run', 'fix the bug'], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`turnloop run: ${MISSING_KEY_MESSAGE}\n`);
    expect(MISSING_KEY_MESSAGE).toContain('ANTHROPIC_API_KEY');
    expect(MISSING_KEY_MESSAGE).toContain("'turnloop demo'");
    expect(MISSING_KEY_MESSAGE).not.toContain('\n');
  });

  it('an empty key counts as missing', async () => {
    expect((await runCli(['run', 'fix the bug'], { env: { ANTHROPIC_API_KEY: '' } })).code).toBe(2);
  });

  it('a --cwd that does not exist is bad input', async () => {
    const result = await runCli(['run', 'hi', '--cwd', '/no/such/dir'], { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--cwd: no such directory');
  });

  it('with a key runs live: the real SDK (here aimed at the loopback fake API via ANTHROPIC_BASE_URL) and the file tools in --cwd', async () => {
    const project = mkdtempSync(join(tmpdir(), 'turnloop-run-'));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'greet.ts'), 'export const greeting = "helo";\n');
    const api = await startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Grep', input: { pattern: 'helo', path: 'src' } }] },
        {
          content: [
            { type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: 'src/greet.ts', old_string: '"helo"', new_string: '"hello"' } },
          ],
        },
        { content: [{ type: 'text', text: 'Fixed the typo in src/greet.ts.' }] },
      ],
    });
    try {
      const result = await runCli(['run', 'fix the typo', '--cwd', project, '--yes', '--max-turns', '5'], {
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('terminal: completed');
      expect(readFileSync(join(project, 'src', 'greet.ts'), 'utf8')).toBe('export const greeting = "hello";\n');
      expect(api.requests).toHaveLength(3);
      expect(api.rejections()).toEqual([]);
      const firstRequest = api.requests[0] as { tools: Array<{ name: string }>; system: Array<{ text: string }> };
      expect(firstRequest.tools.map((t) => t.name).sort()).toEqual(['Edit', 'Glob', 'Grep', 'Read']);
      expect(JSON.stringify(firstRequest.system)).toContain(project);
    } finally {
      await api.close();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
