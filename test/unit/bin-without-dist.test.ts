/**
 * `bin/turnloop.mjs` in a fresh clone: installing builds nothing (no `prepare`), so there is no dist/ and the bin
 * runs the TypeScript sources through tsx. Checked on a copy of the bin beside the repository's src/, scripts/ and
 * node_modules (symlinked) and no dist/; without src/ either, it says what to run instead of Node's raw error.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const made: string[] = [];

/** A checkout-shaped directory with the real bin and package.json, the named repo folders linked, no dist/. */
function checkout(linked: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-bin-'));
  made.push(dir);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(REPO, 'bin/turnloop.mjs'), join(dir, 'bin/turnloop.mjs'));
  copyFileSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  for (const name of linked) symlinkSync(join(REPO, name), join(dir, name));
  return dir;
}

const runBin = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(dir, 'bin/turnloop.mjs'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('bin/turnloop.mjs without dist/', () => {
  it('runs the sources through tsx: the demo completes', () => {
    const dir = checkout(['src', 'scripts', 'node_modules', 'examples']);
    const result = runBin(dir, 'demo', '--json');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { terminal: { reason: string } }).terminal.reason).toBe('completed');
  });

  it('with neither dist/ nor src/, exits 1 saying to build', () => {
    const dir = checkout(['node_modules']);
    const result = runBin(dir, '--version');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('turnloop: dist/cli/main.js is missing: run npm run build\n');
  });
});
