/**
 * Exit codes that tell the truth (issue 29, items 5, 7 and 8): bad input anywhere a command reads it is exit 2 with
 * the place named, before anything is allocated or started; a session log that cannot be written fails the command
 * (said at once, never "session log: <path>" as if written); nothing the user had is overwritten without --force.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../unit/cli/capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-exits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const COMPLETED = resolve(import.meta.dirname, '../../examples/scenarios/completed.json');
const scenario = JSON.parse(readFileSync(COMPLETED, 'utf8')) as { model: Array<Record<string, unknown>>; tools: Array<{ name: string; results: unknown[] }> };

function expectBadInput(result: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.stderr).toMatch(pattern);
  expect(result.code).toBe(2);
  expect(result.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |TypeError|Cannot read properties/);
}

let log = '';
beforeAll(async () => {
  log = join(dir, 'recorded.jsonl');
  const result = await runCli(['simulate', COMPLETED, '--record', log], { cwd: dir });
  expect(result.code).toBe(0);
});

/** The recorded log with its header's params.messages replaced. */
function withMessages(name: string, messages: unknown): string {
  const [header, ...events] = readFileSync(log, 'utf8').split('\n');
  const parsed = JSON.parse(header!) as { params: Record<string, unknown> };
  writeFileSync(join(dir, name), [JSON.stringify({ ...parsed, params: { ...parsed.params, messages } }), ...events].join('\n'));
  return name;
}

describe('a log header whose params.messages is not a list of messages (item 8)', () => {
  it.each([
    ['null', null, /params\.messages: Invalid input: expected array, received null/],
    ['[null]', [null], /params\.messages\.0: expected a message/],
    ['content that is a number', [{ type: 'user', uuid: 'u1', message: { role: 'user', content: 5 } }], /params\.messages\.0: expected a message/],
    ['an assistant message without content', [{ type: 'assistant', uuid: 'a1', message: { id: 'm', role: 'assistant', model: 'x', stop_reason: null } }], /params\.messages\.0: expected a message/],
  ])('%s: replay, viz and resume exit 2 naming line 1 and the member', async (_kind, messages, pattern) => {
    const file = withMessages(`messages-${_kind.replace(/\W+/g, '-')}.jsonl`, messages);
    for (const argv of [['replay', file], ['viz', file, '--out', 'v.html'], ['resume', file, '--fake-api', COMPLETED]]) {
      const result = await runCli(argv, { cwd: dir });
      expectBadInput(result, new RegExp(`${file.replace(/\./g, '\\.')}:1: expected a session header: ${pattern.source}`));
    }
    expect(existsSync(join(dir, 'v.html'))).toBe(false);
  });
});

describe('export --format accepts the four formats only (item 8)', () => {
  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'])('%s: exit 2, the formats listed', async (format) => {
    const result = await runCli(['export', '--format', format], { cwd: dir });
    expectBadInput(result, /unknown format '.*': one of json, mermaid, scxml, dot/);
    expect(result.stdout).toBe('');
  });
});

describe('resume --fake-api with a script of the wrong shape (item 8)', () => {
  it.each([
    ['null', 'null', /\(root\): .*expected object/],
    ['a list', '[]', /\(root\): .*expected object/],
    ['model not a list', '{"model":5}', /model: .*expected array/],
    ['a reply of no known shape', '{"model":[{"nope":1}]}', /model\[0\]: expected a reply/],
    ['tools not a list', '{"tools":"Read"}', /tools: .*expected array/],
    ['a tool result that is not text', '{"tools":[{"name":"Read","results":[{"content":7}]}]}', /tools\[0\]\.results\[0\]\.content/],
    ['a huge repeat', '{"model":[{"content":[],"repeat":1e9}]}', /model\[0\]\.repeat: expected a whole number of copies from 1 to 100000/],
  ])('%s: exit 2 naming the place, the log untouched', async (_kind, script, pattern) => {
    const copy = join(dir, `resume-${_kind.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(copy, readFileSync(log));
    writeFileSync(join(dir, 'script.json'), script);
    const result = await runCli(['resume', copy, '--fake-api', 'script.json'], { cwd: dir });
    expectBadInput(result, new RegExp(`--fake-api: .*script\\.json.*${pattern.source}`));
    expect(readFileSync(copy)).toEqual(readFileSync(log));
  });
});

describe('scenario sizes are refused before allocation (item 7)', () => {
  const reply = scenario.model[0]!;
  it.each([
    ['repeat: 1e9', { model: [{ ...reply, repeat: 1e9 }] }, /model\[0\]\.repeat: expected a whole number of copies from 1 to 100000/],
    ['repeat: 2^53', { model: [{ ...reply, repeat: 2 ** 53 }] }, /model\[0\]\.repeat: expected a whole number/],
    ['20 answers of 99,999 copies each', { model: Array.from({ length: 20 }, () => ({ ...reply, repeat: 99_999 })) }, /model: expected at most 100000 answers \(repeats counted\), got 1999980/],
    ['a tool result repeated 1e9 times', { tools: [{ ...scenario.tools[0]!, results: [{ content: 'x', repeat: 1e9 }] }] }, /tools\.0\.results\.0\.repeat|tools\[0\]\.results\[0\]\.repeat/],
    ['tool results adding up past the bound', { tools: [{ ...scenario.tools[0]!, results: Array.from({ length: 3 }, () => ({ content: 'x', repeat: 99_999 })) }] }, /results.*expected at most 100000 results/],
  ])('%s: exit 2 within seconds, memory untouched', async (_kind, change, pattern) => {
    const file = join(dir, 'sized.json');
    writeFileSync(file, JSON.stringify({ ...scenario, ...change }));
    const heapBefore = process.memoryUsage().heapUsed;
    const started = Date.now();
    const result = await runCli(['simulate', file], { cwd: dir });
    expectBadInput(result, pattern);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  });
});

describe('session logs that cannot be written (item 5)', () => {
  it.skipIf(!existsSync('/dev/full'))('simulate --record /dev/full (every write ENOSPC): said at once, exit 1, no "session log:" line', async () => {
    const result = await runCli(['simulate', COMPLETED, '--record', '/dev/full'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot write the session log \/dev\/full: no space left on the device; recording stopped/);
    expect(result.stderr).not.toMatch(/session log: \/dev\/full/);
  });

  it('simulate --record over a file that holds other data: exit 2, the file untouched; --force overwrites it', async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes, not a log\n');
    const refused = await runCli(['simulate', COMPLETED, '--record', 'notes.txt'], { cwd: dir });
    expectBadInput(refused, /notes\.txt: cannot write it: it already holds 20 bytes; pass --force to overwrite it/);
    expect(readFileSync(notes, 'utf8')).toBe('my notes, not a log\n');
    const forced = await runCli(['simulate', COMPLETED, '--record', 'notes.txt', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toMatch(/^\{"kind":"header"/);
  });

  it('simulate --record over an earlier session log is refused the same way (nothing overwritten without --force)', async () => {
    const before = readFileSync(log);
    const result = await runCli(['simulate', COMPLETED, '--record', 'recorded.jsonl'], { cwd: dir });
    expectBadInput(result, /recorded\.jsonl already holds a session log; record a new session to a new path/);
    expect(readFileSync(log)).toEqual(before);
  });

  it('simulate --record under a file: exit 2 naming the path', async () => {
    writeFileSync(join(dir, 'plain'), 'x');
    expectBadInput(await runCli(['simulate', COMPLETED, '--record', 'plain/run.jsonl'], { cwd: dir }), /plain\/run\.jsonl: cannot write it: a part of its path is not a directory/);
  });

  it.each([
    ['into a directory', () => (mkdirSync(join(dir, 'logs'), { recursive: true }), 'logs'), /logs: cannot write it: it is a directory/],
    ['under a file', () => (writeFileSync(join(dir, 'afile'), 'x'), 'afile/run.jsonl'), /afile: cannot write it: .*afile is not a directory/],
    ['over a file that holds data', () => (writeFileSync(join(dir, 'data.jsonl'), 'precious\n'), 'data.jsonl'), /data\.jsonl: cannot write it: it already holds 9 bytes; pass --force/],
  ])('run --record %s: exit 2 before any request', async (_kind, make, pattern) => {
    const target = make();
    // An unroutable endpoint: a request would hang or fail, not answer; the check must come first.
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-a-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    expectBadInput(await runCli(['run', 'hello', '--record', target, '--cwd', dir], { cwd: dir, env }), pattern);
    if (target === 'data.jsonl') expect(readFileSync(join(dir, 'data.jsonl'), 'utf8')).toBe('precious\n');
    else expect(existsSync(join(dir, target)) && statSync(join(dir, target)).isFile()).toBe(false);
  });
});
