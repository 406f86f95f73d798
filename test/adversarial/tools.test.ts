/**
 * A hostile model aiming the file tools at the loop itself: catastrophic regular expressions, globs with many
 * stars, FIFOs and sockets, symlink races, a store directory symlinked out of the workspace, a hanging tool and
 * Ctrl-C. The loop never blocks, never reads anything but regular files, never writes outside the root.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileToolResultStore } from '../../src/context/result-store.ts';
import { defineTool } from '../../src/tools/define-tool.ts';
import { startFakeAnthropicApi } from '../../src/fake-api/server.ts';
import { createFileTools, createWriteTool } from '../../src/tools/builtin/index.ts';
import { openConfinedFile, verifyStillConfined } from '../../src/tools/builtin/open-confined.ts';
import { z } from 'zod';
import { expectInvariants, makeSandbox, runHostile, snapshotOutside, toolResultTexts, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ 'src/a.txt': `${'a'.repeat(3_000)}b\n`, 'src/b.ts': 'export const b = 1;\n' });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

const done = { content: [{ type: 'text' as const, text: 'done' }], stop_reason: 'end_turn' };
const call = (id: string, name: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use' as const, id, name, input }], stop_reason: 'tool_use' });

describe('tools never block the loop', () => {
  it('Grep with a catastrophic pattern (^(a+)+$) over a 3,000-character line answers at once', async () => {
    const run = await runHostile({ sandbox, model: [call('t1', 'Grep', { pattern: '^(a+)+$' }), call('t2', 'Grep', { pattern: '(a|aa)+\\1' }), done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 3 });
    expect(run.terminal.reason).toBe('completed');
    expect(toolResultTexts(run)[0]).toContain('No matches');
    // Backreferences need backtracking: refused with RE2's reason, as an error result.
    expect(toolResultTexts(run)[1]).toMatch(/not a valid regular expression.*invalid escape/);
  });

  it('Glob with many stars (picomatch\'s own expression backtracks for minutes on this) answers at once', async () => {
    const run = await runHostile({ sandbox, model: [call('t1', 'Glob', { pattern: `${'*a'.repeat(14)}*c` }), call('t2', 'Glob', { pattern: `${'**/'.repeat(30)}*.ts` }), done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 3 });
    expect(toolResultTexts(run)[0]).toContain('No files match');
    expect(toolResultTexts(run)[1]).toBe('src/b.ts');
  });

  it('Read of a FIFO or a socket is an error result, and Grep skips them', async () => {
    execFileSync('mkfifo', [join(sandbox.root, 'src', 'pipe')]);
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(join(sandbox.root, 'src', 'sock'), done));
    try {
      const run = await runHostile({
        sandbox,
        model: [call('t1', 'Read', { file_path: 'src/pipe' }), call('t2', 'Read', { file_path: 'src/sock' }), call('t3', 'Grep', { pattern: 'export' }), call('t4', 'Edit', { file_path: 'src/pipe', old_string: 'a', new_string: 'b' }), done],
      });
      expectInvariants(run, sandbox, before, { maxModelCalls: 5 });
      const [fifo, socket, grep, edit] = toolResultTexts(run);
      expect(fifo).toMatch(/FIFO|not a regular file/);
      expect(socket).toMatch(/socket|not a regular file/);
      expect(grep).toBe('src/b.ts:1: export const b = 1;');
      expect(edit).toMatch(/FIFO|not a regular file/);
    } finally {
      server.close();
    }
  });

  it('Write to a FIFO (no reader), a socket or a device answers at once with an error result and writes nothing', async () => {
    const fifo = join(sandbox.root, 'src', 'pipe');
    execFileSync('mkfifo', [fifo]);
    const server: Server = createServer();
    await new Promise<void>((ready) => server.listen(join(sandbox.root, 'src', 'sock'), ready));
    symlinkSync('/dev/null', join(sandbox.root, 'src', 'null-link'));
    try {
      const run = await runHostile({
        sandbox,
        tools: [...createFileTools({ root: sandbox.root }), createWriteTool(sandbox.root)],
        // No timeout to hide behind: the call itself must not block.
        config: { toolTimeoutMs: 0 },
        model: [call('t1', 'Write', { file_path: 'src/pipe', content: 'x' }), call('t2', 'Write', { file_path: 'src/sock', content: 'x' }), call('t3', 'Write', { file_path: 'src/null-link', content: 'x' }), done],
      });
      expectInvariants(run, sandbox, before, { maxModelCalls: 4 });
      const [toFifo, toSocket, toLink] = toolResultTexts(run);
      expect(toFifo).toMatch(/FIFO|not a regular file/);
      expect(toSocket).toMatch(/socket|not a regular file/);
      expect(toLink).toMatch(/outside|symbolic link|not a regular file/);
    } finally {
      server.close();
      // Before the fix the Write's open blocked a thread-pool thread until a reader came: be that reader.
      try {
        closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
      } catch {
        // gone with the sandbox
      }
    }
  }, 15_000);

  it('a hanging tool is cut off by toolTimeoutMs, and an abort ends the run with every call answered', async () => {
    const hang = defineTool({
      name: 'Hang',
      description: 'never returns',
      inputSchema: z.strictObject({}),
      isConcurrencySafe: () => true,
      interruptBehavior: 'cancel',
      call: () => new Promise(() => undefined),
    });
    const timedOut = await runHostile({ sandbox, tools: [hang], config: { toolTimeoutMs: 200 }, model: [call('t1', 'Hang', {}), done] });
    expectInvariants(timedOut, sandbox, before, { maxModelCalls: 2 });
    expect(toolResultTexts(timedOut)[0]).toMatch(/timed out after 200 ms; it had started/);

    const controller = new AbortController();
    setTimeout(() => controller.abort('user'), 300);
    const aborted = await runHostile({ sandbox, tools: [hang], signal: controller.signal, model: [call('t1', 'Hang', {}), done] });
    expectInvariants(aborted, sandbox, before, { maxModelCalls: 1 });
    expect(aborted.terminal.reason).toBe('aborted_tools');
  });
});

describe('a hostile workspace', () => {
  it('symlink loops, a link to a device, a 20 MB file and invalid UTF-8: walks finish, reads refuse, Edit keeps bytes', async () => {
    symlinkSync(sandbox.root, join(sandbox.root, 'src', 'loop'));
    symlinkSync('/dev/zero', join(sandbox.root, 'zero'));
    writeFileSync(join(sandbox.root, 'big.log'), Buffer.alloc(20 * 1024 * 1024, 0x61));
    const latin1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' KEEP\n')]);
    writeFileSync(join(sandbox.root, 'latin1.txt'), latin1);
    const run = await runHostile({
      sandbox,
      model: [
        call('t1', 'Glob', { pattern: '**/*' }),
        call('t2', 'Read', { file_path: 'zero' }),
        call('t3', 'Read', { file_path: 'big.log' }),
        call('t4', 'Grep', { pattern: 'a+b' }),
        call('t5', 'Edit', { file_path: 'latin1.txt', old_string: 'KEEP', new_string: 'GONE' }),
        done,
      ],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 6 });
    const [glob, zero, big, grep, edit] = toolResultTexts(run);
    expect(glob).not.toContain('loop');
    expect(glob).not.toContain('zero');
    expect(zero).toMatch(/outside the allowed directory/);
    expect(big).toMatch(/larger than 10485760 bytes/);
    expect(grep).toBe(`src/a.txt:1: ${'a'.repeat(500)}`);
    expect(edit).toMatch(/not valid UTF-8 \(byte 3\)/);
    expect(readFileSync(join(sandbox.root, 'latin1.txt')).equals(latin1)).toBe(true);
  });
});

describe('confinement without races', () => {
  it('a symlink swapped in after the path was checked is caught before anything is written', async () => {
    const opened = await openConfinedFile(sandbox.root, 'src/b.ts', 'write');
    try {
      // The attacker moves the checked directory away and puts a symlink out of the root in its place.
      renameSync(join(sandbox.root, 'src'), join(sandbox.root, 'src-moved'));
      symlinkSync(sandbox.dir, join(sandbox.root, 'src'));
      await expect(verifyStillConfined(opened, 'src/b.ts')).rejects.toThrow(/outside the allowed directory/);
    } finally {
      await opened.handle.close();
    }
    expect(readFileSync(join(sandbox.root, 'src-moved', 'b.ts'), 'utf8')).toBe('export const b = 1;\n');
  });

  it('Edit raced by a directory that flips between real and a symlink out of the root never writes outside', async () => {
    const outside = join(sandbox.dir, 'target');
    mkdirSync(outside);
    writeFileSync(join(outside, 'x.txt'), 'KEEP me\n');
    mkdirSync(join(sandbox.root, 'real'));
    writeFileSync(join(sandbox.root, 'real', 'x.txt'), 'KEEP me\n');
    const beforeRace = snapshotOutside(sandbox);
    const edit = createFileTools({ root: sandbox.root }).find((t) => t.name === 'Edit')!;
    const link = join(sandbox.root, 'flip');
    const ctx = { toolUseId: 't', idempotencyKey: 't', signal: new AbortController().signal, context: {} };
    let stop = false;
    const flipper = (async () => {
      for (let i = 0; !stop; i++) {
        rmSync(link, { recursive: true, force: true });
        if (i % 2 === 0) symlinkSync(outside, link);
        else symlinkSync(join(sandbox.root, 'real'), link);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const outcomes: string[] = [];
    const refused = (o: string) => /outside the allowed directory/.test(o);
    // 150 attempts, and more until one met the link pointing out (usually a third of them do; on a loaded machine
    // the flips can stay in step with the edits for a while): the race must have been run to prove anything.
    for (let i = 0; i < 150 || (i < 5_000 && !outcomes.some(refused)); i++) {
      const result = await Promise.resolve(edit.call({ file_path: 'flip/x.txt', old_string: 'KEEP', new_string: 'GONE' }, ctx)).catch((e: Error) => ({ content: e.message }));
      outcomes.push(String((result as { content: unknown }).content));
    }
    stop = true;
    await flipper;
    expect(snapshotOutside(sandbox)).toEqual(beforeRace);
    expect(outcomes.some(refused), `no attempt met the link pointing out: ${[...new Set(outcomes)].join(' | ')}`).toBe(true);
  });

  it('the tool-result store refuses a .turnloop symlinked out of the workspace and creates nothing there', async () => {
    const outside = join(sandbox.dir, 'elsewhere');
    mkdirSync(outside);
    symlinkSync(outside, join(sandbox.root, '.turnloop'));
    const store = createFileToolResultStore({ root: join(sandbox.root, '.turnloop', 'sessions'), workspace: sandbox.root });
    await expect(store.put('s', 'toolu_1', 'big result')).rejects.toThrow(/symbolic link/);
    expect(readdirSync(outside)).toEqual([]);
    // A plain workspace works.
    rmSync(join(sandbox.root, '.turnloop'));
    const pointer = await store.put('s', 'toolu_1', 'big result');
    expect(readFileSync(pointer, 'utf8')).toBe('big result');
  });
});

describe('Ctrl-C', () => {
  it('ends `turnloop run` within a second even while the model stream hangs', async () => {
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'late' }], delayMs: 60_000 }] });
    const bin = resolve(import.meta.dirname, '../../bin/turnloop.mjs');
    const child = spawn(process.execPath, [bin, 'run', 'hello', '--cwd', sandbox.root, '--yes'], {
      env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-api03-test-key-for-ctrl-c-only', ANTHROPIC_BASE_URL: api.baseURL, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      for (let i = 0; i < 200 && api.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(api.requests.length).toBe(1);
      const sent = performance.now();
      child.kill('SIGINT');
      const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
      const elapsed = performance.now() - sent;
      if (process.env.TURNLOOP_REPORT_TIMES) process.stderr.write(`Ctrl-C to exit: ${Math.round(elapsed)} ms\n`);
      // Generous bound (a loaded CI machine); the claim is checked by the 1 s forced exit in run.ts.
      expect(elapsed).toBeLessThan(5_000);
      expect(code).not.toBeNull();
    } finally {
      child.kill('SIGKILL');
      await api.close();
    }
  });
});
