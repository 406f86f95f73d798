/**
 * Session logs of the headless mode are never lost (src/agent-sdk/session-store.ts): an id in use is refused before
 * anything is removed, whether its log is finished or another process is writing it right now (two real
 * processes), and the log never follows a `.turnloop` symlinked out of the workspace.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/replay.ts';
import { REPO_ROOT, runCli } from '../unit/cli/capture-io.ts';

const say = (text: string) => ({ content: [{ type: 'text', text }] });
const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

function project(script: unknown): string {
  const cwd = mkdtempSync(join(tmpdir(), 'turnloop-sessions-'));
  writeFileSync(join(cwd, 'script.json'), JSON.stringify(script));
  return cwd;
}

/** `turnloop <argv>` as a real process in `cwd`. */
function turnloopProcess(argv: string[], cwd: string) {
  // Started in the repository (where `--import tsx` resolves), then moved to the project.
  const script = `import { main } from ${JSON.stringify(MAIN)}; process.chdir(${JSON.stringify(cwd)}); process.exitCode = await main(${JSON.stringify(argv)});`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('a session id in use', () => {
  it('--session-id of a finished session is exit 2, named, and its log is untouched', async () => {
    const cwd = project({ model: [say('first conversation')] });
    const first = await runCli(['-p', 'one', '--session-id', 'chosen-id', '--fake-api', 'script.json'], { cwd });
    expect(first.code).toBe(0);
    const log = join(cwd, '.turnloop/sessions/chosen-id.jsonl');
    const before = readFileSync(log);
    const second = await runCli(['-p', 'two', '--session-id', 'chosen-id', '--fake-api', 'script.json'], { cwd });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/Session ID chosen-id is already in use/);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(log).equals(before)).toBe(true);
    // Continuing it on purpose still works.
    const resumed = await runCli(['-p', 'two', '--resume', 'chosen-id', '--fake-api', 'script.json'], { cwd });
    expect(resumed.code).toBe(0);
  });

  it('a second process for a session another process is writing stops at once (exit 2); the first keeps its log', async () => {
    // The first process's turn runs a Bash call that waits until the test lets it go (at most a minute): its log
    // exists and is being written all the while the second processes start, however slow the machine.
    const wait = 'for i in $(seq 600); do [ -e release ] && break; sleep 0.1; done; test -e release';
    const cwd = project({
      model: [{ content: [{ type: 'tool_use', id: 'toolu_wait', name: 'Bash', input: { command: wait } }] }, say('the first one finished')],
    });
    const first = turnloopProcess(['-p', 'one', '--session-id', 'busy', '--permission-mode', 'bypassPermissions', '--fake-api', 'script.json'], cwd);
    const log = join(cwd, '.turnloop/sessions/busy.jsonl');
    try {
      expect(await until(() => existsSync(log), 20_000)).toBe(true);
      const sameId = await turnloopProcess(['-p', 'two', '--session-id', 'busy', '--fake-api', 'script.json'], cwd).done;
      const resumeIt = await turnloopProcess(['-p', 'two', '--resume', 'busy', '--fake-api', 'script.json'], cwd).done;
      for (const second of [sameId, resumeIt]) {
        expect(second.code).toBe(2);
        expect(second.stderr).toMatch(/session busy is in use by process \d+|Session ID busy is already in use/);
      }
      // The first was still running all along (its Bash call waits for the release file), and its log was there.
      expect(first.child.exitCode).toBeNull();
      expect(existsSync(log)).toBe(true);
      writeFileSync(join(cwd, 'release'), '');
      const ended = await first.done;
      expect(ended.code).toBe(0);
      const replayed = replay(log);
      expect(replayed.terminal?.reason).toBe('completed');
      expect(readFileSync(log, 'utf8')).toContain('the first one finished');
      expect(readdirSync(join(cwd, '.turnloop/sessions')).filter((f) => f.endsWith('.lock'))).toEqual([]);
    } finally {
      first.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('the session log stays in the workspace', () => {
  it('a .turnloop symlinked out of the working directory is refused (exit 2) and nothing is written through it', async () => {
    const cwd = project({ model: [say('hello')] });
    const outside = mkdtempSync(join(tmpdir(), 'turnloop-outside-'));
    symlinkSync(outside, join(cwd, '.turnloop'));
    const run = await runCli(['-p', 'hi', '--fake-api', 'script.json'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.turnloop: it is a symbolic link/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('so is a .turnloop/sessions symlinked out, for --resume too', async () => {
    const cwd = project({ model: [say('hello')] });
    const outside = mkdtempSync(join(tmpdir(), 'turnloop-outside-'));
    writeFileSync(join(outside, 'planted.jsonl'), '');
    mkdirSync(join(cwd, '.turnloop'));
    symlinkSync(outside, join(cwd, '.turnloop/sessions'));
    for (const argv of [['-p', 'hi'], ['-p', 'hi', '--resume', 'planted'], ['-p', 'hi', '--continue']]) {
      const run = await runCli([...argv, '--fake-api', 'script.json'], { cwd });
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/sessions: it is a symbolic link/);
    }
    expect(readdirSync(outside)).toEqual(['planted.jsonl']);
  });
});
