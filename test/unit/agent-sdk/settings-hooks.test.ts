/**
 * What settings files hold besides permission rules, as claude 2.1.334 applies them (docs/agent-sdk-conformance.md):
 * command hooks (settings-hooks.ts, command-hooks.ts), `env`, `permissions.additionalDirectories`, the warnings for
 * bad values, and the permission suggestions for compound commands and WebFetch (permission-updates.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, tempProject, writeScript, type Line } from './headless-harness.ts';
import { readSettingsPermissions } from '../../../src/agent-sdk/settings-permissions.ts';
import { hookOutputOf, runHookCommand } from '../../../src/agent-sdk/command-hooks.ts';
import { permissionSuggestions } from '../../../src/agent-sdk/permission-updates.ts';

const ARGS = [...SDK_ARGS, '--permission-prompt-tool', 'stdio'];
const bash = (id: string, command: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }] });
const done = { content: [{ type: 'text' as const, text: 'done' }] };

function project(local: unknown): string {
  const cwd = tempProject();
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  writeFileSync(join(cwd, '.claude/settings.local.json'), typeof local === 'string' ? local : JSON.stringify(local));
  return cwd;
}

/** Runs the script's Bash calls with the local settings file read, allowing every call asked about. */
async function run(cwd: string, calls: Array<{ content: unknown[] }>) {
  const asked: string[] = [];
  const onLine = (line: Line, send: (reply: Line) => void) => {
    if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
    asked.push(line.request.input.command);
    send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'allow', updatedInput: line.request.input } } });
  };
  const result = await runHeadless([...ARGS, '--setting-sources', 'local', '--fake-api', writeScript(cwd, { model: [...calls, done] as never })], { cwd, onLine });
  return { ...result, asked };
}

describe('reading env, additionalDirectories and hooks', () => {
  it('takes env (a later file winning, values as text), directories against the working directory, and command hooks', () => {
    const cwd = project({ env: { FOO: 'local', N: 2 }, permissions: { additionalDirectories: ['../shared', '/abs'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 3 }, { type: 'prompt', prompt: 'x' }] }], SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ env: { FOO: 'project', BAR: 'project' } }));
    const read = readSettingsPermissions(['project', 'local'], cwd, {});
    expect(read.env).toEqual({ FOO: 'local', BAR: 'project', N: '2' });
    expect(read.additionalDirectories).toEqual([join(cwd, '..', 'shared'), '/abs']);
    expect(read.hooks).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'true', timeout: 3 }] }] });
    expect(read.problems).toEqual([]);
    expect(read.ignored.join('\n')).toMatch(/prompt hook[\s\S]*SessionEnd/);
  });

  it('a bad env, directory list or hook leaves the whole file out; bad hooks or an unknown event only that field', () => {
    for (const [local, field] of [[{ env: 'A=1' }, 'env'], [{ permissions: { additionalDirectories: 'x' } }, 'permissions.additionalDirectories'], [{ permissions: { additionalDirectories: [3] } }, 'permissions.additionalDirectories[0]'], [{ hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } }, 'hooks.Stop.0.hooks.0.command'], [{ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } }, 'hooks.Stop.0.hooks.0.timeout']] as const) {
      const read = readSettingsPermissions(['local'], project({ ...local, permissions: { allow: ['Bash(ls)'], ...(local as { permissions?: object }).permissions } }), {});
      expect(read.problems, field).toMatchObject([{ field, scope: 'file' }]);
      expect(read.rules.allow).toEqual([]);
    }
    for (const [hooks, field] of [[5, 'hooks'], [{ NoSuchEvent: [] }, 'hooks.NoSuchEvent']] as const) {
      const read = readSettingsPermissions(['local'], project({ hooks, permissions: { allow: ['Bash(ls)'] } }), {});
      expect(read.problems).toMatchObject([{ field, scope: 'field' }]);
      expect(read.rules.allow).toEqual(['Bash(ls)']);
    }
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('running a command hook', () => {
  it('gives the input on stdin, in the project, with CLAUDE_PROJECT_DIR and the env given', async () => {
    const cwd = tempProject();
    const finished = await runHookCommand('printf "%s|%s|%s|" "$PWD" "$CLAUDE_PROJECT_DIR" "$FOO"; cat', '{"a":1}', { cwd, env: { PATH: process.env.PATH, FOO: 'foo', CLAUDE_PROJECT_DIR: cwd }, timeoutMs: 10_000 });
    expect(finished).toMatchObject({ code: 0, stdout: `${cwd}|${cwd}|foo|{"a":1}`, timedOut: false });
  });

  it('kills the whole process group at its timeout, so a command that never ends does not hold the session', async () => {
    const cwd = tempProject();
    const started = Date.now();
    const finished = await runHookCommand('sleep 30 & sleep 30; wait', '', { cwd, env: { PATH: process.env.PATH }, timeoutMs: 300 });
    expect(finished.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a timeout longer than a timer can hold is not a timeout at once', async () => {
    const finished = await runHookCommand('sleep 0.2; echo done', '', { cwd: tempProject(), env: { PATH: process.env.PATH }, timeoutMs: 30 * 24 * 3600 * 1000 });
    expect(finished).toMatchObject({ code: 0, stdout: 'done\n', timedOut: false });
  });

  it('keeps a character whole when the pipe splits its bytes across two reads', async () => {
    // 1 + 2 * 40,000 bytes: a pipe read of 64 KiB ends inside an 'é'.
    const script = `process.stdout.write('a' + 'é'.repeat(40000))`;
    const finished = await runHookCommand(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`, '', { cwd: tempProject(), env: { PATH: process.env.PATH }, timeoutMs: 30_000 });
    expect(finished.stdout).toBe('a' + 'é'.repeat(40000));
  });

  it('kills a running hook\'s process group when the session is stopped by SIGTERM (as the SDK closes it)', async () => {
    const cwd = tempProject();
    const pidFile = join(cwd, 'hook.pid');
    const module = JSON.stringify(new URL('../../../src/agent-sdk/command-hooks.ts', import.meta.url).href);
    const script = `const { runHookCommand } = await import(${module}); await runHookCommand('echo $$ > hook.pid; exec sleep 60', '', { cwd: process.cwd(), env: { PATH: process.env.PATH }, timeoutMs: 60000 });`;
    const tsx = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
    const session = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { cwd, stdio: 'ignore' });
    let pid = 0;
    try {
      for (let waited = 0; !existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === ''; waited += 50) {
        if (waited > 20_000) throw new Error('the hook did not start');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      pid = Number(readFileSync(pidFile, 'utf8').trim());
      const exited = new Promise<NodeJS.Signals | null>((resolve) => session.once('exit', (_code, signal) => resolve(signal)));
      session.kill('SIGTERM');
      expect(await exited).toBe('SIGTERM');
      let alive = true;
      for (let waited = 0; alive && waited < 5_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        alive = isAlive(pid);
      }
      expect(alive).toBe(false);
    } finally {
      session.kill('SIGKILL');
      if (pid > 0 && isAlive(pid)) process.kill(-pid, 'SIGKILL');
    }
  });

  it('maps the exit status as claude: 0 with JSON is the output, 2 blocks with stderr, others change nothing', () => {
    const hook = { command: './check.sh', timeout: 5 };
    const finished = (code: number, stdout: string, stderr = '') => ({ code, stdout, stderr, timedOut: false, aborted: false });
    expect(hookOutputOf('PreToolUse', hook, finished(0, '{"decision":"block","reason":"r"}\n')).output).toEqual({ decision: 'block', reason: 'r' });
    // claude 2.1.334's denial text, carried whole (test/agent-sdk/hook-texts.test.ts).
    const denial = 'PreToolUse:Bash hook error: [./check.sh]: no rm';
    expect(hookOutputOf('PreToolUse', hook, finished(2, '', 'no rm\n'), 'Bash').output).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denial }, turnloopDenialText: denial });
    expect(hookOutputOf('Stop', hook, finished(2, '', 'keep going')).output).toEqual({ decision: 'block', reason: 'keep going' });
    expect(hookOutputOf('UserPromptSubmit', hook, finished(0, 'some context\n')).output).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'some context' } });
    expect(hookOutputOf('PreToolUse', hook, finished(1, 'x', 'oops'))).toEqual({ output: {}, problem: 'exited with 1: oops' });
    expect(hookOutputOf('PostToolUse', hook, finished(0, '{not json')).output).toEqual({});
  });
});

describe('settings applied to a headless session', () => {
  it('a PreToolUse command hook that exits 2 denies the call; one that answers JSON context lets it run', async () => {
    const cwd = project({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'input=$(cat); echo "$input" >> hook-inputs.jsonl; case "$input" in *"rm -f"*) echo "no removing" >&2; exit 2;; esac' }] }] } });
    writeFileSync(join(cwd, 'gone.txt'), '');
    const result = await run(cwd, [bash('toolu_1', 'touch a.txt'), bash('toolu_2', 'rm -f gone.txt')]);
    expect(existsSync(join(cwd, 'a.txt'))).toBe(true);
    expect(existsSync(join(cwd, 'gone.txt'))).toBe(true);
    expect(result.asked).toEqual(['touch a.txt']);
    const inputs = readFileSync(join(cwd, 'hook-inputs.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(inputs.map((i) => [i.hook_event_name, i.tool_name, i.tool_input.command, i.tool_use_id, i.cwd])).toEqual([['PreToolUse', 'Bash', 'touch a.txt', 'toolu_1', cwd], ['PreToolUse', 'Bash', 'rm -f gone.txt', 'toolu_2', cwd]]);
    expect(result.lines.find((l) => l.type === 'result')).toMatchObject({ permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_2' }] });
  });

  it('a PreToolUse hook past its timeout is killed, the call goes on, and the program gets claude\'s hook_no_verdict warning', async () => {
    const cwd = project({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sleep 30', timeout: 0.3 }] }] } });
    const result = await run(cwd, [bash('toolu_1', 'touch a.txt')]);
    expect(existsSync(join(cwd, 'a.txt'))).toBe(true);
    expect(result.lines.filter((l) => l.type === 'system' && l.subtype === 'informational')).toMatchObject([{ tag: 'hook_no_verdict', level: 'warning', hook_no_verdict: { hook_event: 'PreToolUse', tool_use_id: 'toolu_1', timed_out: true } }]);
  });

  it('env reaches Bash over the process\'s variables; additionalDirectories let the file tools read there', async () => {
    const cwd = project({ env: { FOO: 'from-settings' }, permissions: { additionalDirectories: [`../${basename(tempProject())}`] } });
    const shared = join(cwd, '..', JSON.parse(readFileSync(join(cwd, '.claude/settings.local.json'), 'utf8')).permissions.additionalDirectories[0].slice(3));
    writeFileSync(join(shared, 'notes.txt'), 'shared notes\n');
    process.env.FOO = 'from-process';
    try {
      const result = await run(cwd, [bash('toolu_1', 'printf %s "$FOO" > env.txt'), { content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: join(shared, 'notes.txt') } }] }]);
      expect(readFileSync(join(cwd, 'env.txt'), 'utf8')).toBe('from-settings');
      const read = result.lines.flatMap((l) => (l.type === 'user' && Array.isArray(l.message.content) ? l.message.content : [])).find((b: { tool_use_id?: string }) => b.tool_use_id === 'toolu_2');
      expect(read).toMatchObject({ content: expect.stringContaining('shared notes') });
      expect(read.is_error).not.toBe(true);
    } finally {
      delete process.env.FOO;
    }
  });

  it('a Stop hook that exits 2 gives the model another turn, announced after the feedback message as claude does', async () => {
    const cwd = project({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'grep -q \'"stop_hook_active":false\' && { echo "say more" >&2; exit 2; }; exit 0' }] }] } });
    const result = await runHeadless([...ARGS, '--setting-sources', 'local', '--fake-api', writeScript(cwd, { model: [done, done] as never })], { cwd });
    const kinds = result.lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ''}`).filter((k) => k !== 'stream_event' && k !== 'system/thinking_tokens');
    expect(kinds.slice(kinds.indexOf('assistant'))).toEqual(['assistant', 'user', 'system/notification', 'assistant', 'result/success']);
    expect(result.lines.find((l) => l.subtype === 'notification')).toMatchObject({ key: 'stop-hook-error', priority: 'immediate' });
    expect(result.lines.find((l) => l.type === 'result')).toMatchObject({ num_turns: 2 });
  });

  it('bad hooks are reported in the settings_not_in_effect warning, naming the field, and the rest of the file applies', async () => {
    const cwd = project({ hooks: 5, permissions: { allow: ['Bash(touch a.txt)'] } });
    const result = await run(cwd, [bash('toolu_1', 'touch a.txt')]);
    expect(result.asked).toEqual([]);
    const warning = result.lines.find((l) => l.type === 'system' && l.subtype === 'informational');
    expect(warning).toMatchObject({ tag: 'settings_not_in_effect', level: 'warning' });
    expect(warning?.content).toContain('settings.local.json (hooks)');
  });
});

describe('permission suggestions as claude 2.1.334 makes them', () => {
  const rules = (...ruleContent: string[]) => ({ type: 'addRules', rules: ruleContent.map((c) => ({ toolName: 'Bash', ruleContent: c })), behavior: 'allow', destination: 'localSettings' });
  it('a rule per command of a compound command, `true` left out; a program and its subcommand as a prefix rule', async () => {
    const cwd = tempProject();
    const cases: Array<[string, string[]]> = [
      ['mkdir -p build && touch build/x.txt', ['mkdir -p build', 'touch build/x.txt']],
      ['npm test && npm run lint -- --fix', ['npm test *', 'npm run *']],
      ['git add . && git commit -m "a b"', ['git add *', 'git commit *']],
      ['mkdir out || true', ['mkdir out *']],
      ['touch a.txt && touch a.txt', ['touch a.txt']],
      ['npm test; touch z.txt', ['npm test *', 'touch z.txt']],
      ['cargo build --release', ['cargo build *']],
      ['python3 x.py', ['python3 x.py']],
      ['go build ./...', ['go build *']],
    ];
    for (const [command, expected] of cases) expect((await permissionSuggestions('Bash', { command }, cwd))[0], command).toEqual(rules(...expected));
  });

  it('WebFetch: the URL\'s domain for localSettings', async () => {
    expect(await permissionSuggestions('WebFetch', { url: 'https://docs.example.com/a/page?x=1', prompt: 'p' }, tempProject())).toEqual([{ type: 'addRules', rules: [{ toolName: 'WebFetch', ruleContent: 'domain:docs.example.com' }], behavior: 'allow', destination: 'localSettings' }]);
    expect(await permissionSuggestions('WebFetch', { url: 'not a url' }, tempProject())).toEqual([]);
  });

  it('an applied prefix rule covers the command it was suggested for (`npm test *` covers `npm test`)', async () => {
    const { allowCoversCommand } = await import('../../../src/agent-sdk/permission-rules.ts');
    const { parseShellCommand } = await import('../../../src/agent-sdk/shell-commands.ts');
    expect(allowCoversCommand('npm test *', await parseShellCommand('npm test'))).toBe(true);
    expect(allowCoversCommand('npm run *', await parseShellCommand('npm run lint -- --fix'))).toBe(true);
    expect(allowCoversCommand('npm test *', await parseShellCommand('npm testing'))).toBe(false);
  });
});
