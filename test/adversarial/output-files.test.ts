/**
 * The one output writer (src/cli/write-output.ts, used by viz, export, sign, explore, import-claude and bounds)
 * writes a regular file or a new path, nothing else: a device, a FIFO or a symlink to a device is refused by name
 * (exit 2) and left as it was, never replaced by a renamed file; a path under a file is a named error, not a raw
 * ENOTDIR. And `bounds --witness` refuses at once a witness no scenario can hold.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_TRANSCRIPTS_DIR } from '../helpers/fixtures.ts';
import { runCli } from '../unit/cli/capture-io.ts';

const COMPLETED = resolve(import.meta.dirname, '../../examples/scenarios/completed.json');

function oneCleanError(result: { code: number; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |ENOTDIR/);
  expect(result.stderr).toMatch(pattern);
}

/** A folder holding a FIFO, a symlink to the character device /dev/null, and a regular file. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-outputs-'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  symlinkSync('/dev/null', join(dir, 'null-link'));
  writeFileSync(join(dir, 'a-file'), 'a regular file\n');
  return dir;
}

/** Each output-writing command, given the output path. */
const WRITERS: Array<[string, (out: string) => string[]]> = [
  ['bounds --witness', (out) => ['bounds', '--params', '{"maxTurns":1}', '--witness', out]],
  ['viz --out', (out) => ['viz', '--out', out]],
  ['export --out', (out) => ['export', '--format', 'mermaid', '--out', out]],
];

describe.each(WRITERS)('%s', (_name, argv) => {
  it('refuses a symlink to a device (exit 2, named) and leaves it a symlink to the device', async () => {
    const dir = workspace();
    const result = await runCli(argv('null-link'), { cwd: dir });
    oneCleanError(result, /null-link: cannot write it: it is a device, not a regular file/);
    expect(lstatSync(join(dir, 'null-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'null-link'))).toBe('/dev/null');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('refuses a FIFO (exit 2, named) and leaves it a FIFO', async () => {
    const dir = workspace();
    const result = await runCli(argv('fifo'), { cwd: dir });
    oneCleanError(result, /fifo: cannot write it: it is a FIFO \(named pipe\), not a regular file/);
    expect(lstatSync(join(dir, 'fifo')).isFIFO()).toBe(true);
  });

  it('a path under a file is a named error, and nothing is left beside it', async () => {
    const dir = workspace();
    const result = await runCli(argv('a-file/out.json'), { cwd: dir });
    oneCleanError(result, /a-file\/out\.json: cannot write it: a part of its path is not a directory/);
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'fifo', 'null-link']);
  });
});

describe('writers that make folders', () => {
  it('import-claude --out under a file: named, not a raw ENOTDIR', async () => {
    const dir = workspace();
    const result = await runCli(['import-claude', join(CLAUDE_TRANSCRIPTS_DIR, 'short.jsonl'), '--out', 'a-file/scenarios'], { cwd: dir });
    oneCleanError(result, /a-file\/scenarios: cannot write it: a part of its path is not a directory/);
  });

  it('sign refuses a signature path that is a FIFO', async () => {
    const dir = workspace();
    const log = join(dir, 'run.jsonl');
    expect((await runCli(['simulate', COMPLETED, '--record', log], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'key'), 'a-secret-key-of-enough-length-for-hmac');
    const sigs = readdirSync(dir);
    const result = await runCli(['sign', log, '--key', join(dir, 'key')], { cwd: dir });
    expect(result.code).toBe(0);
    const signature = readdirSync(dir).find((f) => !sigs.includes(f))!;
    // The same signature path, now a FIFO: refused, left a FIFO.
    execFileSync('rm', [join(dir, signature)]);
    execFileSync('mkfifo', [join(dir, signature)]);
    const again = await runCli(['sign', log, '--key', join(dir, 'key')], { cwd: dir });
    oneCleanError(again, /cannot write it: it is a FIFO/);
    expect(lstatSync(join(dir, signature)).isFIFO()).toBe(true);
  });
});

describe('bounds --witness past the scenario format', () => {
  it('a bound above 100,000 model calls is refused at once (exit 2, one line), nothing printed or written', async () => {
    const dir = workspace();
    const result = await runCli(['bounds', '--params', '{"maxTurns":1000000000}', '--witness', 'w.json'], { cwd: dir });
    oneCleanError(result, /--witness: the bound is [\d,]+ main-loop model calls.*a scenario holds at most 100,000 answers/);
    expect(result.stdout).toBe('');
    expect(readdirSync(dir)).not.toContain('w.json');
  });

  it('a witness past the default model-call cap (maxTurns 250: 1,350 calls) is written within the limits and simulate reaches it', async () => {
    const dir = workspace();
    const bounds = await runCli(['bounds', '--params', '{"maxTurns":250}', '--witness', 'w.json'], { cwd: dir });
    expect(bounds.code).toBe(0);
    expect(bounds.stderr).toMatch(/witness: .*w\.json \(1350 main-loop model calls: reaches the bound\)/);
    const simulated = await runCli(['simulate', 'w.json', '--json', '--check'], { cwd: dir });
    expect(simulated.stderr).toBe('');
    expect(simulated.code).toBe(0);
    expect((JSON.parse(simulated.stdout) as { modelCalls: number }).modelCalls).toBe(1350);
  }, 60_000);
});
