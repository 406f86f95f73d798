import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = (file: string) => JSON.stringify(fileURLToPath(new URL(`../../../src/${file}`, import.meta.url)));

/** Runs `lines` in a fresh process that has `lockLog`, `openLogWriter` and `existsSync` imported. */
function inChild(lines: string[]) {
  const script = [
    `import { existsSync, mkdirSync, rmSync } from 'node:fs';`,
    `import { lockLog } from ${source('replay/log-lock.ts')};`,
    `import { openLogWriter } from ${source('replay/log-writer.ts')};`,
    ...lines,
  ].join('\n');
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}

const tempLog = (name: string) => join(mkdtempSync(join(tmpdir(), 'turnloop-exit-')), name);

describe('a log at process exit', () => {
  it('is still locked while the writer writes its held lines, and unlocked afterwards', () => {
    const log = tempLog('run.jsonl');
    // The lock is taken before the writer opens, as every recorder and resume does; the writer's held text says
    // whether the lock file still exists at the moment it is written.
    const child = inChild([
      `const lock = lockLog(${JSON.stringify(log)});`,
      `const writer = openLogWriter(${JSON.stringify(log)}, { fsync: false, onError: (e) => { throw e; }, pull: () => 'locked while flushing: ' + existsSync(lock.log + '.lock') + '\\n' });`,
      `writer.touch();`,
      `process.exit(0);`,
    ]);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('locked while flushing: true\n');
    expect(existsSync(`${log}.lock`)).toBe(false);
  });

  it('releases every lock even when one release fails: the failure is printed and the exit status is 1', () => {
    const first = tempLog('a.jsonl');
    const second = tempLog('b.jsonl');
    // The first lock's file is replaced by a directory: unlinking it fails (EISDIR/EPERM), the second still goes.
    const child = inChild([
      `lockLog(${JSON.stringify(first)});`,
      `lockLog(${JSON.stringify(second)});`,
      `rmSync(${JSON.stringify(`${first}.lock`)}); mkdirSync(${JSON.stringify(`${first}.lock`)});`,
      `process.exit(0);`,
    ]);
    expect(child.stderr).toMatch(/^turnloop: at exit, unlocking a session log failed: .*(EISDIR|EPERM)/);
    expect(child.status).toBe(1);
    expect(existsSync(`${second}.lock`)).toBe(false);
  });

  it('releases the locks when writing held lines fails, and runs the exit listeners added after them', () => {
    const log = tempLog('run.jsonl');
    const child = inChild([
      `const lock = lockLog(${JSON.stringify(log)});`,
      `const writer = openLogWriter(${JSON.stringify(log)}, { fsync: false, onError: (e) => { throw e; }, pull: () => { throw new Error('no text'); } });`,
      `writer.touch();`,
      `process.on('exit', () => process.stdout.write('later listener ran'));`,
      `process.exit(0);`,
    ]);
    expect(child.stderr).toBe('turnloop: at exit, writing a session log failed: no text\n');
    expect(child.stdout).toBe('later listener ran');
    expect(child.status).toBe(1);
    expect(existsSync(`${log}.lock`)).toBe(false);
  });
});
