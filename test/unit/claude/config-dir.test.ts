/**
 * Claude Code's config dir, one rule for every reader: the values are what claude 2.1.334 did with each
 * `CLAUDE_CONFIG_DIR` when probed offline (where it wrote its session and which CLAUDE.md it read), and the two
 * readers (the `user` setting source of the headless mode, `turnloop sessions`) find the same directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeConfigDir } from '../../../src/claude/config-dir.ts';
import { sourcePlaces } from '../../../src/agent-sdk/setting-sources.ts';
import { main } from '../../../src/cli/main.ts';

const work = mkdtempSync(join(tmpdir(), 'turnloop-config-dir-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each case: CLAUDE_CONFIG_DIR (undefined = unset) and where claude 2.1.334 kept its config, for HOME=/home/a, cwd=/work. */
const PROBED: Array<[string | undefined, string]> = [
  [undefined, '/home/a/.claude'],
  ['/x/cfg', '/x/cfg'],
  ['relcfg', '/work/relcfg'],
  ['', '/work'],
  ['   ', '/work/   '],
  ['~/cfg', '/work/~/cfg'],
];

describe('claudeConfigDir', () => {
  it.each(PROBED)('CLAUDE_CONFIG_DIR=%j is %s', (value, expected) => {
    const env = { HOME: '/home/a', ...(value === undefined ? {} : { CLAUDE_CONFIG_DIR: value }) };
    expect(claudeConfigDir(env, '/work')).toBe(expected);
  });

  it('without HOME: the OS home the caller gives, else none', () => {
    expect(claudeConfigDir({}, '/work', '/root')).toBe('/root/.claude');
    expect(claudeConfigDir({}, '/work')).toBeUndefined();
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: 'c' }, '/work')).toBe('/work/c');
  });
});

describe('the two readers of the config dir agree', () => {
  it.each(PROBED.map(([value]) => [value]))('CLAUDE_CONFIG_DIR=%j: the user setting source and turnloop sessions name one directory', async (value) => {
    const env = { HOME: join(work, 'home'), ...(value === undefined ? {} : { CLAUDE_CONFIG_DIR: value.replace('/x/cfg', join(work, 'abs')) }) };
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, env, cwd: work };
    expect(await main(['sessions', '--json'], io), out).toBe(0);
    const listed = (JSON.parse(out) as { configDir: string }).configDir;
    const user = sourcePlaces(['user'], work, env)[0];
    expect(user?.root).toBe(listed);
  });
});
