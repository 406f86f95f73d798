/**
 * The SDK's `settings` option (`--settings`: claude's flag-settings layer), side by side (programs/conf-settings.ts):
 * as an object, a file path or JSON text its permission rules, `env` and command hooks apply with no setting source
 * read, its `defaultMode` wins over the project settings file's, and a bad value is claude's error or warning.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import {
  confSettingsBadField, confSettingsBadJson, confSettingsBadJsonFile, confSettingsBadJsonObject, confSettingsJsonText,
  confSettingsMissingFile, confSettingsModel, confSettingsModelUnder, confSettingsObject, confSettingsOverProject, confSettingsPath,
} from './programs/conf-settings.ts';

function runsOf(program: Parameters<typeof runProgram>[0]) {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
  });
  return (engine: EngineName) => runs.get(engine)!;
}

for (const program of [confSettingsObject, confSettingsPath, confSettingsJsonText]) {
  describe(program.name, () => {
    const run = runsOf(program);
    it('the allowed command runs unasked, the denied one is refused unasked, env reaches Bash and the hook, the hook runs', () => {
      for (const engine of ENGINES) {
        expect(run(engine).error, engine).toBeUndefined();
        expect(run(engine).observed, engine).toEqual({
          asked: ['printf %s "$CONF_FLAG" > env.txt'],
          allowedWritten: true,
          goneRemoved: false,
          env: 'from-flag-settings',
          hookSeen: 'from-flag-settings|from-flag-settings|from-flag-settings|',
          denials: ['Bash'],
        });
      }
      expect(run('turnloop').shapes).toEqual(run('claude').shapes);
    });
  });
}

describe(confSettingsOverProject.name, () => {
  const run = runsOf(confSettingsOverProject);
  it('the flag settings\' acceptEdits is the session\'s mode: the Write runs unasked', () => {
    for (const engine of ENGINES) expect(run(engine).observed, engine).toEqual({ asked: [], written: true, initMode: 'acceptEdits' });
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});

/** claude exits 1 with `Error: <text>`; turnloop exits 2 (bad input) with `turnloop: <text>`. */
const EXIT = { claude: 'Claude Code process exited with code 1. stderr: Error: ', turnloop: 'Claude Code process exited with code 2. stderr: turnloop: ' };

describe('settings: a bad value', () => {
  const missing = runsOf(confSettingsMissingFile);
  const notJson = runsOf(confSettingsBadJson);
  const badObject = runsOf(confSettingsBadJsonObject);
  const badFile = runsOf(confSettingsBadJsonFile);
  const badField = runsOf(confSettingsBadField);

  it('a path to no file, and text that is not in braces (a path), stop the start: Settings file not found', () => {
    for (const engine of ENGINES) {
      expect(missing(engine).observed.threw, engine).toBe(`${EXIT[engine]}Settings file not found: <cwd>/nowhere.json`);
      expect(String(notJson(engine).observed.threw).trim(), engine).toBe(`${EXIT[engine]}Settings file not found: <cwd>/{"permissions":`);
      expect(missing(engine).shapes, engine).toEqual([]);
    }
  });

  it('JSON text in braces that does not parse stops the start: Invalid JSON provided to --settings', () => {
    for (const engine of ENGINES) expect(String(badObject(engine).observed.threw), engine).toMatch(new RegExp(`^${EXIT[engine].replace(/[.]/g, '\\.')}Invalid JSON provided to --settings`));
  });

  it('a file that is not JSON, and a field of the wrong type, are a settings_not_in_effect warning naming the file or the inline value', () => {
    for (const engine of ENGINES) {
      for (const [run, names] of [[badFile, '<cwd>/bad.json'], [badField, '--settings (inline JSON) (permissions.allow)']] as const) {
        const { warning, threw, result } = run(engine).observed as { warning: { tag: string; level: string; content: string } | null; threw: unknown; result: unknown };
        expect(threw, engine).toBeNull();
        expect(result, engine).toEqual({ subtype: 'success', isError: false });
        expect(warning?.tag, engine).toBe('settings_not_in_effect');
        expect(warning?.level, engine).toBe('warning');
        expect(warning?.content, engine).toContain(names);
      }
      expect(badField('turnloop').shapes).toEqual(badField('claude').shapes);
    }
  });
});

describe('settings: model', () => {
  const alone = runsOf(confSettingsModel);
  const under = runsOf(confSettingsModelUnder);
  it('is the session\'s model when the program names none; the program\'s model option wins over it', () => {
    for (const engine of ENGINES) {
      expect(alone(engine).observed, engine).toEqual({ requestModel: 'claude-haiku-4-5', initModel: 'claude-haiku-4-5' });
      expect(under(engine).observed, engine).toEqual({ requestModel: 'claude-sonnet-4-6', initModel: 'claude-sonnet-4-6' });
    }
    expect(alone('turnloop').shapes).toEqual(alone('claude').shapes);
  });
});
