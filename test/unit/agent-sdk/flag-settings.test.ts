/**
 * `--settings` (flag-settings.ts): inline JSON or a file path, read as claude 2.1.334 reads it, and merged over the
 * settings files of `--setting-sources` (settings-permissions.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INLINE_SETTINGS_LABEL, readFlagSettings } from '../../../src/agent-sdk/flag-settings.ts';
import { HeadlessArgsError } from '../../../src/agent-sdk/headless-args.ts';
import { readSettingsPermissions } from '../../../src/agent-sdk/settings-permissions.ts';

const project = () => mkdtempSync(join(tmpdir(), 'flag-settings-'));

describe('readFlagSettings', () => {
  it('takes text in braces as inline JSON, anything else as a path resolved against the working directory', () => {
    const cwd = project();
    writeFileSync(join(cwd, 's.json'), '{"env":{"A":"1"}}');
    expect(readFlagSettings(undefined, cwd)).toBeUndefined();
    expect(readFlagSettings(' {"env":{}} ', cwd)).toEqual({ label: INLINE_SETTINGS_LABEL, text: '{"env":{}}' });
    expect(readFlagSettings('s.json', cwd)).toEqual({ label: join(cwd, 's.json'), text: '{"env":{"A":"1"}}' });
  });

  it('refuses inline JSON that does not parse, and a path to no file, naming what was wrong', () => {
    const cwd = project();
    expect(() => readFlagSettings('{"permissions": }', cwd)).toThrow(HeadlessArgsError);
    expect(() => readFlagSettings('{"permissions": }', cwd)).toThrow(/^Invalid JSON provided to --settings/);
    expect(() => readFlagSettings('nowhere.json', cwd)).toThrow(`Settings file not found: ${join(cwd, 'nowhere.json')}`);
    expect(() => readFlagSettings('{"a":', cwd)).toThrow(`Settings file not found: ${join(cwd, '{"a":')}`);
  });
});

describe('readSettingsPermissions with flag settings', () => {
  it('merges them after the sources\' files: their rules add, their defaultMode and env win', () => {
    const cwd = project();
    mkdirSync(join(cwd, '.claude'));
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(ls)'], defaultMode: 'plan' }, env: { A: 'project', B: 'project' } }));
    const flag = { label: INLINE_SETTINGS_LABEL, text: JSON.stringify({ permissions: { deny: ['Bash(rm:*)'], defaultMode: 'acceptEdits', additionalDirectories: ['shared'] }, env: { A: 'flag' } }) };
    const merged = readSettingsPermissions(['project'], cwd, {}, flag);
    expect(merged.rules).toEqual({ allow: ['Bash(ls)'], deny: ['Bash(rm:*)'], ask: [] });
    expect(merged.defaultMode).toBe('acceptEdits');
    expect(merged.env).toEqual({ A: 'flag', B: 'project' });
    expect(merged.additionalDirectories).toEqual([join(cwd, 'shared')]);
    expect(merged.problems).toEqual([]);
  });

  it('applies them with no setting source, and reports a bad value as the inline settings\' problem, the rest still read', () => {
    const cwd = project();
    const ok = readSettingsPermissions([], cwd, {}, { label: INLINE_SETTINGS_LABEL, text: '{"permissions":{"ask":["Bash"]}}' });
    expect(ok.rules.ask).toEqual(['Bash']);
    const bad = readSettingsPermissions([], cwd, {}, { label: INLINE_SETTINGS_LABEL, text: '{"permissions":{"allow":"Bash"},"env":{"A":"1"}}' });
    expect(bad.problems).toEqual([{ path: INLINE_SETTINGS_LABEL, field: 'permissions.allow', problem: 'expected an array of rule strings, got string', scope: 'file' }]);
    expect(bad.env).toEqual({});
    const notJson = readSettingsPermissions([], cwd, {}, { label: '/x/s.json', text: '{' });
    expect(notJson.problems[0]).toMatchObject({ path: '/x/s.json', scope: 'file' });
  });
});

describe('model in settings', () => {
  it('the last file that sets it wins (the flag settings last); a model that is not a name leaves its file out', () => {
    const cwd = project();
    mkdirSync(join(cwd, '.claude'));
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ model: 'claude-sonnet-4-6' }));
    expect(readSettingsPermissions(['project'], cwd, {}).model).toBe('claude-sonnet-4-6');
    expect(readSettingsPermissions(['project'], cwd, {}, { label: INLINE_SETTINGS_LABEL, text: '{"model":"claude-haiku-4-5"}' }).model).toBe('claude-haiku-4-5');
    const bad = readSettingsPermissions([], cwd, {}, { label: INLINE_SETTINGS_LABEL, text: '{"model":3,"env":{"A":"1"}}' });
    expect(bad.problems).toEqual([{ path: INLINE_SETTINGS_LABEL, field: 'model', problem: 'expected a model name, got 3', scope: 'file' }]);
    expect([bad.model, bad.env]).toEqual([undefined, {}]);
  });
});
