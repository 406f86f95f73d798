/**
 * Permission rules read from the settings files of `--setting-sources` (settings-permissions.ts), as claude 2.1.334
 * reads them: allow, deny and ask rules, defaultMode, and a bad file reported and left out.
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, tempProject, types, writeScript, type Line } from './headless-harness.ts';
import { readSettingsPermissions } from '../../../src/agent-sdk/settings-permissions.ts';

const bash = (id: string, command: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }] });
const done = { content: [{ type: 'text' as const, text: 'done' }] };
const ARGS = [...SDK_ARGS, '--permission-prompt-tool', 'stdio'];

function project(files: { local?: unknown; project?: unknown }): string {
  const cwd = tempProject();
  mkdirSync(join(cwd, '.claude'));
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (files.local !== undefined) writeFileSync(join(cwd, '.claude/settings.local.json'), text(files.local));
  if (files.project !== undefined) writeFileSync(join(cwd, '.claude/settings.json'), text(files.project));
  writeFileSync(join(cwd, 'gone.txt'), '');
  return cwd;
}

/** Runs `touch allowed.txt` then `rm -f gone.txt`, allowing every call it is asked about; what was asked. */
async function run(cwd: string, sources: string, env: Record<string, string> = {}, extra: string[] = []) {
  const asked: string[] = [];
  const onLine = (line: Line, send: (reply: Line) => void) => {
    if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
    asked.push(line.request.input.command);
    send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'allow', updatedInput: line.request.input } } });
  };
  const result = await runHeadless([...ARGS, ...extra, '--setting-sources', sources, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'touch allowed.txt'), bash('toolu_2', 'rm -f gone.txt'), done] })], { cwd, onLine, env });
  return { ...result, asked, removed: !existsSync(join(cwd, 'gone.txt')), final: result.lines.find((l) => l.type === 'result') };
}

const RULES = { local: { permissions: { allow: ['Bash(touch allowed.txt)'] } }, project: { permissions: { deny: ['Bash(rm:*)'] } } };

describe('rules from settings files', () => {
  it("a local allow rule and a project deny rule apply when their sources are read: the allowed call is not asked, the denied one is refused unasked", async () => {
    const outcome = await run(project(RULES), 'local,project');
    expect(outcome.asked).toEqual([]);
    expect(existsSync(join(outcome.cwd, 'allowed.txt'))).toBe(true);
    expect(outcome.removed).toBe(false);
    expect(outcome.final).toMatchObject({ subtype: 'success', permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_2' }] });
    expect(types(outcome.lines)).toContain('system/permission_denied');
  });

  it("as claude: a file of a source not given is not read (the SDK's default settingSources: [], or local alone)", async () => {
    expect((await run(project(RULES), '')).asked).toEqual(['touch allowed.txt', 'rm -f gone.txt']);
    const localOnly = await run(project(RULES), 'local');
    expect(localOnly.asked).toEqual(['rm -f gone.txt']);
    expect(localOnly.removed).toBe(true);
  });

  it("user: settings.json in the config directory (CLAUDE_CONFIG_DIR)", async () => {
    const config = mkdtempSync(join(tmpdir(), 'turnloop-config-'));
    writeFileSync(join(config, 'settings.json'), JSON.stringify(RULES.project));
    const outcome = await run(project({}), 'user', { CLAUDE_CONFIG_DIR: config });
    expect(outcome.asked).toEqual(['touch allowed.txt']);
    expect(outcome.removed).toBe(false);
  });

  it('an ask rule is asked even when an allow rule covers the call', async () => {
    const outcome = await run(project({ local: RULES.local, project: { permissions: { ask: ['Bash(touch:*)'] } } }), 'local,project');
    expect(outcome.asked).toEqual(['touch allowed.txt', 'rm -f gone.txt']);
  });

  it('a Bash rule from a file goes through the parsed-command matcher (fail closed): an allow rule does not cover a command chained to it', async () => {
    const cwd = project({ local: { permissions: { allow: ['Bash(touch:*)'] } } });
    const asked: string[] = [];
    const onLine = (line: Line, send: (reply: Line) => void) => {
      if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
      asked.push(line.request.input.command);
      send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'deny', message: 'no' } } });
    };
    await runHeadless([...ARGS, '--setting-sources', 'local', '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'touch a'), bash('toolu_2', 'touch b && rm -f gone.txt'), done] })], { cwd, onLine });
    expect(asked).toEqual(['touch b && rm -f gone.txt']);
  });

  it('defaultMode is the mode when no --permission-mode is given, and reported in system/init', async () => {
    const outcome = await run(project({ project: { permissions: { defaultMode: 'acceptEdits' } } }), 'project');
    expect(outcome.lines.find((l) => l.subtype === 'init')).toMatchObject({ permissionMode: 'acceptEdits' });
    expect(outcome.asked).toEqual([]);
    const flagWins = await run(project({ project: { permissions: { defaultMode: 'acceptEdits' } } }), 'project', {}, ['--permission-mode', 'default']);
    expect(flagWins.asked).toEqual(['touch allowed.txt', 'rm -f gone.txt']);
  });
});

describe('bad settings files', () => {
  const cases: Array<[string, unknown, string]> = [
    ['invalid JSON', '{ "permissions": ', 'not valid JSON'],
    ['permissions not an object', { permissions: ['Bash'] }, '(permissions): expected an object, got an array'],
    ['a rule list not an array', { permissions: { allow: 'Bash(touch allowed.txt)' } }, '(permissions.allow): expected an array of rule strings, got string'],
    ['a defaultMode that is no mode', { permissions: { defaultMode: 'yolo' } }, '(permissions.defaultMode): expected one of default'],
  ];
  for (const [what, local, problem] of cases) {
    it(`${what}: the file is left out, named with what was wrong after system/init and on stderr; the other files apply and the run ends`, async () => {
      const outcome = await run(project({ local, project: RULES.project }), 'local,project');
      const path = join(outcome.cwd, '.claude/settings.local.json');
      const kinds = types(outcome.lines);
      expect(kinds.indexOf('system/informational')).toBe(kinds.indexOf('system/init') + 1);
      const warning = outcome.lines.find((l) => l.subtype === 'informational');
      expect(warning).toMatchObject({ tag: 'settings_not_in_effect', level: 'warning' });
      expect(warning!.content).toContain(`${path}`);
      expect(warning!.content).toContain(problem);
      expect(outcome.stderr).toContain(path);
      expect(outcome.asked).toEqual(['touch allowed.txt']);
      expect(outcome.removed).toBe(false);
      expect(outcome.final).toMatchObject({ subtype: 'success' });
    });
  }

  it('a rule that is not a string is skipped, the rest of the file applies', async () => {
    const outcome = await run(project({ local: { permissions: { allow: [42, 'Bash(touch allowed.txt)'] } } }), 'local');
    expect(outcome.asked).toEqual(['rm -f gone.txt']);
    expect(outcome.lines.find((l) => l.subtype === 'informational')!.content).toContain('(permissions.allow[0]): expected a rule string, got 42; skipped');
  });

  it('what turnloop does not apply (sandbox, statusLine, permissions.disableBypassPermissionsMode) is named on stderr, never ignored silently', async () => {
    const outcome = await run(project({ local: { $schema: 'x', hooks: {}, env: { A: '1' }, sandbox: {}, statusLine: {}, permissions: { allow: ['Bash(touch allowed.txt)'], additionalDirectories: ['/tmp'], disableBypassPermissionsMode: 'disable' } } }), 'local');
    expect(outcome.stderr).toContain(`settings: ${join(outcome.cwd, '.claude/settings.local.json')}: turnloop applies only permissions (allow, deny, ask, defaultMode, additionalDirectories), env, model and command hooks; ignoring sandbox, statusLine, permissions.disableBypassPermissionsMode`);
    expect(outcome.asked).toEqual(['rm -f gone.txt']);
    expect(types(outcome.lines)).not.toContain('system/informational');
  });

  it('no warning when the files are fine or absent', async () => {
    expect(types((await run(project(RULES), 'local,project')).lines)).not.toContain('system/informational');
    expect(types((await run(tempProject(), 'user,project,local', { CLAUDE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'turnloop-config-')) })).lines)).not.toContain('system/informational');
  });
});

describe('nothing read outside the project', () => {
  it('a symlinked .claude is not read and is reported', () => {
    const outside = mkdtempSync(join(tmpdir(), 'turnloop-outside-'));
    writeFileSync(join(outside, 'settings.local.json'), JSON.stringify(RULES.local));
    const cwd = tempProject();
    symlinkSync(outside, join(cwd, '.claude'));
    const read = readSettingsPermissions(['local', 'project'], cwd, {});
    expect(read.rules.allow).toEqual([]);
    expect(read.problems).toEqual([{ path: join(cwd, '.claude/settings.json'), scope: 'file', problem: `${join(cwd, '.claude')} is a symbolic link; settings are read inside the project only` }, { path: join(cwd, '.claude/settings.local.json'), scope: 'file', problem: `${join(cwd, '.claude')} is a symbolic link; settings are read inside the project only` }]);
  });

  it('a symlinked settings file is not read', () => {
    const outside = mkdtempSync(join(tmpdir(), 'turnloop-outside-'));
    writeFileSync(join(outside, 'x.json'), JSON.stringify(RULES.local));
    const cwd = project({});
    symlinkSync(join(outside, 'x.json'), join(cwd, '.claude/settings.local.json'));
    const read = readSettingsPermissions(['local'], cwd, {});
    expect(read.rules.allow).toEqual([]);
    expect(read.problems[0]!.problem).toContain('symbolic link');
  });

  it('rules of several files merge, user then project then local, without repeats; the last defaultMode wins', () => {
    const config = mkdtempSync(join(tmpdir(), 'turnloop-config-'));
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ permissions: { allow: ['Read'], defaultMode: 'plan' } }));
    const cwd = project({ project: { permissions: { allow: ['Bash(ls)', 'Read'], defaultMode: 'acceptEdits' } }, local: { permissions: { allow: ['Bash(pwd)'], deny: ['WebFetch'] } } });
    expect(readSettingsPermissions(['user', 'project', 'local'], cwd, { CLAUDE_CONFIG_DIR: config })).toEqual({ rules: { allow: ['Read', 'Bash(ls)', 'Bash(pwd)'], deny: ['WebFetch'], ask: [] }, defaultMode: 'acceptEdits', env: {}, additionalDirectories: [], hooks: {}, problems: [], ignored: [] });
  });
});
