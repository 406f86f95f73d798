/**
 * Every CLI command that reads a file, against every kind of bad file: exit 2, ONE line on stderr naming the file,
 * the place and what was expected, no stack trace, nothing on stdout, no output file written (not even half).
 * Plus: strict what-if flags, unwritable output paths and a closed stdout (EPIPE).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_TRANSCRIPTS_DIR } from '../helpers/fixtures.ts';
import { runCli } from '../unit/cli/capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-badcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the file once (the same bad file serves every command). */
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  if (!existsSync(path)) writeFileSync(path, content);
  return name;
}

const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const HUGE = 50 * 1024 * 1024;
const hugeLength = `{"kind":"header","x":""}`.length + HUGE;
const BAD_INPUTS: Array<[string, () => string, RegExp]> = [
  ['a missing file', () => 'nowhere.jsonl', /nowhere\.jsonl: no such file/],
  ['a directory', () => (mkdirSync(join(dir, 'a-dir'), { recursive: true }), 'a-dir'), /a-dir: is a directory; expected/],
  ['an empty file', () => file('empty.jsonl', ''), /empty\.jsonl: is empty; expected/],
  ['binary garbage', () => file('garbage.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xfe])), /garbage\.bin: line 1: byte 6 is NUL, so this is a binary file/],
  ['invalid UTF-8', () => file('latin1.jsonl', Buffer.concat([Buffer.from('{"kind":"header"}\n{"text":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')])), /latin1\.jsonl: line 2, column 13: byte 30 \(0xe9\) is not valid UTF-8/],
  ['100,000-deep JSON', () => file('deep.jsonl', `${deep}\n`), /deep\.jsonl: line 1, column 513: JSON nested deeper than 512 levels/],
  ['a 50 MB line', () => file('huge.jsonl', `{"kind":"header","x":"${'x'.repeat(HUGE)}"}\n`), new RegExp(`huge\\.jsonl: line 1 is ${hugeLength} bytes long; at most ${32 * 1024 * 1024}`)],
];

/** argv of each command for an input file (and the output it must not write). */
const COMMANDS: Array<[string, (input: string) => string[], string | null]> = [
  ['replay', (input) => ['replay', input], null],
  ['replay --at', (input) => ['replay', input, '--at', '1'], null],
  ['viz', (input) => ['viz', input, '--out', 'view.html'], 'view.html'],
  ['resume', (input) => ['resume', input], null],
  ['sign', (input) => ['sign', input, '--key', 'hmac.key'], null],
  ['check-claude', (input) => ['check-claude', input], null],
  ['import-claude', (input) => ['import-claude', input, '--out', 'imported'], 'imported'],
  ['simulate', (input) => ['simulate', input], null],
];

writeFileSync(join(dir, 'hmac.key'), 'a shared secret of more than sixteen bytes\n');

function expectOneCleanError(result: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(pattern);
}

describe.each(COMMANDS)('turnloop %s', (_name, argv, output) => {
  it.each(BAD_INPUTS)('%s: exit 2, one message naming the file and the place', async (_kind, make, pattern) => {
    const input = make();
    const result = await runCli(argv(input), { cwd: dir });
    // simulate reads JSON (one document), so its depth message has no line-based column, and a 50 MB line is fine.
    const expected = _name === 'simulate' && /100,000-deep/.test(_kind) ? /deep\.jsonl: line 1, column 513: JSON nested deeper/ : pattern;
    if (_name === 'simulate' && /50 MB/.test(_kind)) {
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    } else expectOneCleanError(result, expected);
    if (output) expect(existsSync(join(dir, output))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.sig') || n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('what-if flags are validated like a scenario config', () => {
  it.each([
    ['--config', '{"limits":{"maxModelCall":2}}', /--config: limits\.maxModelCall: unknown key; expected one of: .*maxModelCalls/],
    ['--config', '{"features":{"autoCompact":"no"}}', /--config: features\.autoCompact: expected a boolean/],
    ['--params', '{"maxTurn":1}', /--params: maxTurn: unknown key; expected one of: systemPrompt, .*maxTurns/],
    ['--params', '{"maxTurns":-1}', /--params: maxTurns: expected a number >= 0/],
    ['--config', '[1,2]', /--config expects a JSON object/],
    ['--config', '{"a":', /--config expects a JSON object/],
  ])('%s %s', async (flag, value, pattern) => {
    const recorded = file('ok.jsonl', '{"kind":"header"}\n');
    const result = await runCli(['replay', recorded, flag, value], { cwd: dir });
    expectOneCleanError(result, pattern);
  });
});

describe('output paths', () => {
  it.each([
    ['a missing directory', 'no/such/dir/out.html', /no\/such\/dir\/out\.html: cannot write it: its directory does not exist/],
    ['a directory', '.', /cannot write it: it is a directory/],
  ])('viz --out into %s: exit 2, nothing written', async (_kind, out, pattern) => {
    const before = readdirSync(dir);
    const result = await runCli(['viz', '--out', out], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(readdirSync(dir)).toEqual(before);
  });

  it.each([
    ['a missing directory', 'gone/run.jsonl', /gone\/run\.jsonl: cannot write it: its directory does not exist/],
    ['a directory', '.', /cannot write it: it is a directory/],
  ])('simulate --record into %s: exit 2 before the run starts (no fake API left holding the process)', async (_kind, out, pattern) => {
    const scenario = resolve(import.meta.dirname, '../../examples/scenarios/completed.json');
    const result = await runCli(['simulate', scenario, '--record', out], { cwd: dir });
    expectOneCleanError(result, pattern);
  });

  it('import-claude --out under /proc (where a recursive mkdir spins forever): exit 2', async () => {
    const transcript = join(CLAUDE_TRANSCRIPTS_DIR, 'short.jsonl');
    const result = await runCli(['import-claude', transcript, '--out', '/proc/turnloop-nope/x'], { cwd: dir });
    expectOneCleanError(result, /\/proc\/turnloop-nope\/x: cannot write it: cannot create \/proc\/turnloop-nope/);
  });

  it('export --out into a missing directory', async () => {
    const result = await runCli(['export', '--format', 'mermaid', '--out', 'missing/chart.mmd'], { cwd: dir });
    expectOneCleanError({ ...result, stdout: result.stdout }, /missing\/chart\.mmd: cannot write it: its directory does not exist/);
  });
});

describe('a closed stdout', () => {
  it('EPIPE ends the command with one line and exit 2, no stack trace', async () => {
    const bin = resolve(import.meta.dirname, '../../bin/turnloop.mjs');
    const child = spawn(process.execPath, [bin, 'viz'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(code).toBe(2);
    expect(stderr).toBe('turnloop: stdout was closed before the output was written (EPIPE)\n');
  });
});

describe('the headless executable: --fake-api of the wrong shape', () => {
  it.each([
    ['a JSON array', '[{"content": [{"type": "text", "text": "hi"}]}]', /--fake-api: .*script\.json: \(root\): expected an object \{model: \[replies\].*got an array/],
    ['a string', '"hello"', /\(root\): expected an object .*got a string/],
    ['model not a list', '{"model": {"content": []}}', /--fake-api: invalid fake API script in .*script\.json: model: /],
    ['a bad reply deep inside', '{"model": [{"content": [{"type": "txet", "text": "hi"}]}]}', /model\[0\]\.content\[0\]\.type/],
  ])('%s: exit 2 naming the place, before any request', async (_kind, text, pattern) => {
    const where = mkdtempSync(join(tmpdir(), 'turnloop-fake-script-'));
    writeFileSync(join(where, 'script.json'), text);
    const result = await runCli(['-p', 'hi', '--fake-api', 'script.json'], { cwd: where });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
    expect(result.stdout).toBe('');
    // Refused before anything started: no session folder was made, no turn ran.
    expect(readdirSync(where)).toEqual(['script.json']);
  });
});
