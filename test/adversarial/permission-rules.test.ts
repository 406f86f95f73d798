/**
 * Permission rules that mean what they say (docs/security.md, "Permission rules"): a Bash rule is matched on the
 * parsed command, so shell syntax cannot smuggle a second command past an allow rule or hide one from a deny rule;
 * path rules hold for every spelling of a path. The first two cases run the real headless executable with the
 * real Bash tool and check the file system, not only the decision.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSdkCanUseTool, isFilesystemCommand, type PermissionMode } from '../../src/agent-sdk/permission-modes.ts';
import type { PermissionDenial } from '../../src/agent-sdk/result-message.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import { runCli } from '../unit/cli/capture-io.ts';

const bash = (id: string, command: string) => ({ type: 'tool_use' as const, id, name: 'Bash', input: { command } });

/**
 * Runs `turnloop -p` with one model reply per Bash call (a failed Bash call cancels its siblings in one reply, as in
 * Claude Code), then a final answer; the parsed result line.
 */
async function runCalls(cwd: string, commands: string[], flags: string[]) {
  const script = { model: [...commands.map((command, i) => ({ content: [bash(`toolu_${i}`, command)] })), { content: [{ type: 'text', text: 'done' }] }] };
  writeFileSync(join(cwd, 'script.json'), JSON.stringify(script));
  const run = await runCli(['-p', 'go', '--output-format', 'json', '--fake-api', 'script.json', '--no-session-persistence', ...flags], { cwd, env: {} });
  return { ...run, result: JSON.parse(run.stdout) as { permission_denials: PermissionDenial[] } };
}

describe('Bash allow rules cover every command the shell would run', () => {
  it("with Bash(echo:*) allowed, nothing chained, piped, substituted or redirected after echo runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
    const attempts = [
      'echo hi && touch and-list',
      'echo hi; touch semicolon',
      'echo hi || true; touch after-or',
      'echo $(touch dollar-paren)',
      'echo `touch backtick`',
      'echo hi | tee piped',
      'echo hi > redirected',
      'echo hi >> appended',
      'echo hi\ntouch newline',
      'echo hi & touch background',
      'echo <(touch process-sub)',
      'X=1 echo hi; PATH=. touch assigned',
      'echo "unterminated; touch unparsable',
    ];
    const run = await runCalls(cwd, ['echo allowed-ran > /dev/null 2>&1', ...attempts], ['--allowedTools', 'Bash(echo:*)']);
    expect(run.code).toBe(0);
    for (const file of ['and-list', 'semicolon', 'after-or', 'dollar-paren', 'backtick', 'piped', 'redirected', 'appended', 'newline', 'background', 'process-sub', 'assigned', 'unparsable']) {
      expect(existsSync(join(cwd, file)), file).toBe(false);
    }
    // The plain echo ran (it was allowed); every other call was denied and reported.
    expect(run.result.permission_denials.map((d) => d.tool_input.command)).toEqual(attempts);
  });
});

describe('Bash deny rules cover any command the shell would run', () => {
  it('with Bash(rm:*) denied (everything else bypassed), no spelling of rm deletes anything', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
    const attempts = [
      'true && rm -rf d1',
      ' rm -rf d2',
      'rm\t-rf d3',
      '/bin/rm -rf d4',
      '\\rm -rf d5',
      '"rm" -rf d6',
      "sh -c 'rm -rf d7'",
      'bash -c "true; rm -rf d8"',
      'eval rm -rf d9',
      'echo d10 | xargs rm -rf',
      'env rm -rf d11',
      'cmd=rm; $cmd -rf d12',
      'find . -name d13 -exec rm -rf {} +',
      '/usr/bin/r[m] -rf d14',
      'true\nrm -rf d15',
      'x=$(rm -rf d16)',
      'busybox rm -rf d17',
      "env -S 'rm -rf d18'",
      "trap 'rm -rf d19' EXIT",
      'sudo -u root nice -n 5 timeout 9 rm -rf d20',
      'coproc rm -rf d21',
    ];
    const count = attempts.length;
    for (let i = 1; i <= count; i++) mkdirSync(join(cwd, `d${i}`));
    const run = await runCalls(cwd, [...attempts, 'rmdir --help > /dev/null; touch control-ran'], ['--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)']);
    expect(run.code).toBe(0);
    for (let i = 1; i <= count; i++) expect(existsSync(join(cwd, `d${i}`)), `d${i}: ${attempts[i - 1]}`).toBe(true);
    expect(run.result.permission_denials.map((d) => d.tool_input.command)).toEqual(attempts);
    // A command the rule does not cover still runs (the rule is not "deny all Bash").
    expect(existsSync(join(cwd, 'control-ran'))).toBe(true);
  });
});

/** A stand-in tool with the given name (the decision does not run it). */
const toolNamed = (name: string, readOnly = false) => ({ name, isReadOnly: () => readOnly }) as unknown as Tool;

async function decide(name: string, input: Record<string, unknown>, options: { allow?: string[]; deny?: string[]; mode?: PermissionMode; cwd: string }) {
  const canUseTool = createSdkCanUseTool({ mode: () => options.mode ?? 'default', allowedTools: options.allow ?? [], disallowedTools: options.deny ?? [], onDenial: () => undefined, cwd: options.cwd });
  const result = await canUseTool(toolNamed(name, name === 'Read'), input, { toolUseId: 'toolu_x', signal: new AbortController().signal } as Parameters<typeof canUseTool>[2]);
  return result.behavior;
}

describe('deciding stays cheap on hostile commands', () => {
  it('thousands of nested wrappers and a deep sh -c chain are decided (no exponential search)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
    const wrappers = `${'sudo nice '.repeat(2_000)}true`;
    expect(await decide('Bash', { command: wrappers }, { deny: ['Bash(rm:*)'], mode: 'bypassPermissions', cwd })).toBe('allow');
    expect(await decide('Bash', { command: `${wrappers} rm x` }, { deny: ['Bash(rm:*)'], mode: 'bypassPermissions', cwd })).toBe('deny');
    let nested = 'rm -rf d';
    for (let i = 0; i < 8; i++) nested = `sh -c ${JSON.stringify(nested)}`;
    // Past the nesting the rule follows, the command is treated as covered (fail closed).
    expect(await decide('Bash', { command: nested }, { deny: ['Bash(rm:*)'], mode: 'bypassPermissions', cwd })).toBe('deny');
  });
});

describe('path rules hold for every spelling of a path', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
  mkdirSync(join(cwd, 'sub'));
  const spellings = ['secret.txt', './secret.txt', join(cwd, 'secret.txt'), 'sub/../secret.txt', 'sub/./../secret.txt'];

  it('a Read deny rule stops Read of ./x, an absolute path and sub/../x', async () => {
    for (const file_path of spellings) expect(await decide('Read', { file_path }, { deny: ['Read(secret.txt)'], cwd }), file_path).toBe('deny');
    expect(await decide('Read', { file_path: 'other.txt' }, { deny: ['Read(secret.txt)'], cwd })).toBe('allow');
  });

  it('an Edit allow rule covers every spelling and nothing outside it; an Edit deny rule also covers Write', async () => {
    for (const file_path of spellings) expect(await decide('Edit', { file_path }, { allow: ['Edit(secret.txt)'], cwd }), file_path).toBe('allow');
    expect(await decide('Edit', { file_path: '../secret.txt' }, { allow: ['Edit(secret.txt)'], cwd })).toBe('deny');
    expect(await decide('Write', { file_path: './sub/../secret.txt' }, { deny: ['Edit(secret.txt)'], mode: 'bypassPermissions', cwd })).toBe('deny');
    expect(await decide('Edit', { file_path: 'sub/a.ts' }, { allow: ['Edit(sub/**)'], cwd })).toBe('allow');
    expect(await decide('Edit', { file_path: 'sub/../a.ts' }, { allow: ['Edit(sub/**)'], cwd })).toBe('deny');
  });
});

describe('acceptEdits runs filesystem commands unasked only inside the working directory', () => {
  it('end to end: touch ../x is not run, touch x is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
    const cwd = join(dir, 'work');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'script.json'), '{}');
    const run = await runCalls(cwd, ['touch ../outside-marker', `touch ${join(dir, 'absolute-marker')}`, 'mkdir -p a && touch a/inside-marker'], ['--permission-mode', 'acceptEdits']);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'outside-marker'))).toBe(false);
    expect(existsSync(join(dir, 'absolute-marker'))).toBe(false);
    expect(existsSync(join(cwd, 'a/inside-marker'))).toBe(true);
    expect(run.result.permission_denials).toHaveLength(2);
  });

  it('refuses (asks about) paths outside it, through .., absolute or through a symlink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-perm-'));
    const cwd = join(dir, 'work');
    mkdirSync(cwd);
    writeFileSync(join(dir, 'outside.txt'), 'x');
    const { symlinkSync } = await import('node:fs');
    symlinkSync(dir, join(cwd, 'link-out'));
    expect(await isFilesystemCommand('mkdir -p a/b && touch a/b/c', cwd)).toBe(true);
    for (const command of ['rm ../outside.txt', `rm ${join(dir, 'outside.txt')}`, 'touch link-out/new', 'cp x --target-directory=/tmp', 'touch ~/x', 'rm "$HOME/x"']) {
      expect(await isFilesystemCommand(command, cwd), command).toBe(false);
    }
    expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe('x');
  });
});
