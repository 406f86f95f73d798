/**
 * A newcomer's first minute, from a fresh clone: the README's first line (`npm install && npx turnloop demo`)
 * and its "Try it" commands, in a clone of this repository's committed HEAD (what CI checks out). The install
 * and the demo are timed and printed (the figures belong in docs/benchmarks.md, never in an assertion).
 *
 * `--prefer-offline`: npm takes what the machine's cache holds and asks the registry only for what is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_ENV, REPO } from './consumer-project.ts';

let clone: string;
let installSeconds = 0;

function npx(args: string[], timeout = 120_000) {
  return spawnSync('npx', ['--no-install', 'turnloop', ...args], { cwd: clone, env: CLEAN_ENV, encoding: 'utf8', timeout });
}

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'turnloop-clone-'));
  clone = join(work, 'turnloop');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', REPO, clone], { env: CLEAN_ENV, stdio: 'pipe' });
  const started = Date.now();
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone, env: CLEAN_ENV, encoding: 'utf8' });
  installSeconds = (Date.now() - started) / 1000;
  if (install.status !== 0) throw new Error(`npm install in a fresh clone failed (exit ${install.status}):\n${install.stderr}`);
  console.log(`fresh clone: npm install took ${installSeconds.toFixed(1)} s`);
}, 600_000);

afterAll(() => {
  if (clone) rmSync(join(clone, '..'), { recursive: true, force: true });
});

describe('a fresh clone (the README\'s first line)', () => {
  it('npx turnloop demo fixes the sample bug and names a session log that exists', () => {
    const started = Date.now();
    const demo = npx(['demo', '--json']);
    console.log(`fresh clone: npx turnloop demo took ${((Date.now() - started) / 1000).toFixed(1)} s (after an install of ${installSeconds.toFixed(1)} s)`);
    expect(demo.stderr).not.toMatch(/Error|ERR_/);
    expect(demo.status).toBe(0);
    const out = JSON.parse(demo.stdout) as { terminal: { reason: string }; sessionLog: string; diff: string };
    expect(out.terminal.reason).toBe('completed');
    expect(out.diff).toMatch(/validate\.ts/);
    expect(existsSync(out.sessionLog)).toBe(true);
    const replay = npx(['replay', out.sessionLog, '--at', '3']);
    expect(replay.status).toBe(0);
  });

  it('the README\'s "Try it" commands run in the clone as written', () => {
    const readme = readFileSync(join(clone, 'README.md'), 'utf8');
    const block = /## Try it\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README.md has a "Try it" sh block').toBeTruthy();
    const commands = (block as string).trim().split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    expect(commands.length).toBeGreaterThan(2);
    for (const command of commands) {
      const words = command.split(/\s+/);
      expect(words.slice(0, 2)).toEqual(['npx', 'turnloop']);
      const result = npx(words.slice(2));
      expect(result.status, `${command}\n${result.stderr}`).toBe(0);
    }
  });
});
