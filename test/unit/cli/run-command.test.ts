/** `turnloop run` without an API key: one clear paragraph that points to `turnloop demo`, exit 2, no network. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MISSING_KEY_MESSAGE, SESSIONS_DIR } from '../../../src/cli/commands/run.ts';
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
        cwd: project,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('terminal: completed');
      expect(readFileSync(join(project, 'src', 'greet.ts'), 'utf8')).toBe('export const greeting = "hello";\n');
      expect(api.requests).toHaveLength(3);
      expect(api.rejections()).toEqual([]);
      const firstRequest = api.requests[0] as { tools: Array<{ name: string }>; system: Array<{ text: string }> };
      expect(firstRequest.tools.map((t) => t.name).sort()).toEqual(['Edit', 'Glob', 'Grep', 'Read', 'Task']);
      expect(JSON.stringify(firstRequest.system)).toContain(project);
    } finally {
      await api.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  describe('recording, --json, exit codes and retries (against the loopback fake API)', () => {
    const reply = { content: [{ type: 'text' as const, text: 'Nothing to change.' }] };
    let project = '';
    const live = async (script: Parameters<typeof startFakeAnthropicApi>[0], flags: string[] = [], tty = false) => {
      project = mkdtempSync(join(tmpdir(), 'turnloop-run-'));
      const api = await startFakeAnthropicApi(script);
      try {
        const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL };
        const result = await runCli(['run', 'look around', '--yes', ...flags], { env, cwd: project, tty });
        return { ...result, requests: api.requests.length };
      } finally {
        await api.close();
      }
    };
    afterEach(() => rmSync(project, { recursive: true, force: true }));

    it('records to .turnloop/sessions/<id>.jsonl by default, prints the path, and replay reads it', async () => {
      const result = await live({ model: [reply] });
      expect(result.code, result.stderr).toBe(0);
      const shown = /session log: (\S+\.jsonl)/.exec(result.stdout)?.[1];
      expect(shown).toMatch(new RegExp(`^${SESSIONS_DIR.replace('.', '\\.')}/\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z-[0-9a-f]{6}\\.jsonl$`));
      expect(readdirSync(join(project, SESSIONS_DIR))).toEqual([shown!.split('/').pop()]);
      const replayed = await runCli(['replay', shown!], { cwd: project });
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toContain('terminal: completed');
    });

    it('--no-record writes nothing; --record FILE writes there', async () => {
      expect((await live({ model: [reply] }, ['--no-record'])).code).toBe(0);
      expect(existsSync(join(project, '.turnloop'))).toBe(false);
      rmSync(project, { recursive: true, force: true });
      const result = await live({ model: [reply] }, ['--record', 'logs/mine.jsonl']);
      expect(result.code).toBe(0);
      expect(readFileSync(join(project, 'logs/mine.jsonl'), 'utf8').split('\n')[0]).toContain('"kind":"header"');
    });

    it('--json prints one JSON object per line: init, the messages, then the result', async () => {
      const result = await live({ model: [reply] }, ['--json']);
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; subtype?: string; terminal?: { reason: string }; session_log?: string });
      expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
      expect(lines.some((line) => line.type === 'assistant')).toBe(true);
      expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false, terminal: { reason: 'completed' }, num_turns: 1 });
      expect(existsSync(lines.at(-1)!.session_log!)).toBe(true);
    });

    it('a 401 fails at once (one request, no retry) and exits 1', async () => {
      const result = await live({ model: [{ status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } }] });
      expect(result.code).toBe(1);
      expect(result.requests).toBe(1);
      expect(result.stderr).not.toContain('retry');
      expect(result.stdout).toContain('terminal: completed (ended on an API error: API error 401 authentication_error: invalid x-api-key)');
    });

    it('a run that ends on an API error (400) exits 1 and says so', async () => {
      const result = await live({ model: [{ status: 400, error: { type: 'invalid_request_error', message: 'messages: bad shape' } }] });
      expect(result.requests).toBe(1);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('(ended on an API error: messages: bad shape)');
    });

    it('shows progress on a TTY: turn, phase, tokens, model calls and the elapsed time', async () => {
      const result = await live({ model: [reply] }, [], true);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/turn \d+ · \w+ · [\d,]+ tokens · \d+ model call\(s\) · \d+ s/);
    });

    it('Task runs a subagent with the file tools (no Task of its own), recorded beside the log; replay re-drives both', async () => {
      const result = await live(
        {
          model: [
            { content: [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'List the files.', description: 'List files' } }] },
            { content: [{ type: 'tool_use', id: 'toolu_glob', name: 'Glob', input: { pattern: '*' } }] },
            { content: [{ type: 'text', text: 'There are no files.' }] },
            { content: [{ type: 'text', text: 'The subagent found no files.' }] },
          ],
        },
        ['--record', 'run.jsonl', '--max-turns', '5'],
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.requests).toBe(4);
      expect(readdirSync(join(project, 'run.agents'))).toEqual(['toolu_task.jsonl']);
      const child = readFileSync(join(project, 'run.agents', 'toolu_task.jsonl'), 'utf8');
      expect(child).toContain('"querySource":"agent:Task"');
      expect(child).toContain('toolu_glob');
      const parent = readFileSync(join(project, 'run.jsonl'), 'utf8');
      expect(parent).toContain('There are no files.');
      const replayed = await runCli(['replay', 'run.jsonl'], { cwd: project });
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toMatch(/child run toolu_task \(agent:Task\): replayed \d+ events, every state hash matches; terminal: completed/);
    });

    it('--no-task leaves the Task tool out', async () => {
      project = mkdtempSync(join(tmpdir(), 'turnloop-run-'));
      const api = await startFakeAnthropicApi({ model: [reply] });
      try {
        const result = await runCli(['run', 'look around', '--yes', '--no-task', '--json'], { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL }, cwd: project });
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout.split('\n')[0]!).tools).toEqual(['Read', 'Edit', 'Glob', 'Grep']);
        expect((api.requests[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).not.toContain('Task');
      } finally {
        await api.close();
      }
    });

    it('prints one line per retry: what failed, attempt k of n, the wait', async () => {
      const result = await live({ model: [{ status: 500, error: { type: 'api_error', message: 'Internal server error' } }, reply] });
      expect(result.code, result.stderr).toBe(0);
      expect(result.requests).toBe(2);
      expect(result.stderr).toBe('request failed: 500 Internal server error; retry 1 of 10 in 0.5 s\n');
    });
  });
});
