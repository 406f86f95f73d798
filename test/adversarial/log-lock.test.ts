/**
 * One writer per log (issue 29, item 6): two resumes of one log at once used to interleave their lines ("expected
 * event index 13, got 10" afterwards). Every writer takes `<log>.lock` (`src/replay/log-lock.ts`) before reading
 * what it will append to; the second stops at once with a message naming the log and the holder (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelCaller } from '../../src/data/deps.ts';
import type { QueryItem } from '../../src/messages/types.ts';
import { lockLog, LogLockedError } from '../../src/replay/log-lock.ts';
import { replay } from '../../src/replay/replay.ts';
import { resumeFromLog } from '../../src/replay/resume.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../src/replay/scripted-deps.ts';
import { createSessionRecorder } from '../../src/replay/session-recorder.ts';
import { runCli } from '../unit/cli/capture-io.ts';
import { recordRun, reseal, toolTurns } from '../unit/replay/fixtures.ts';

/** The log cut (and resealed) right after its first model_done line: a run waiting for its tools. */
function cutAfterFirstReply(path: string): void {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cut = lines.findIndex((line) => line.includes('"type":"model_done"'));
  writeFileSync(path, `${reseal(lines.slice(0, cut + 1)).join('\n')}\n`);
}

async function drain(generator: AsyncGenerator<QueryItem, unknown>): Promise<unknown> {
  while (true) {
    const next = await generator.next();
    if (next.done) return next.value;
  }
}

describe('one writer per log', () => {
  it('a second resume of a log being resumed exits 2 naming the holder; the first finishes and the log replays', async () => {
    const script = toolTurns(2);
    const run = await recordRun(script);
    cutAfterFirstReply(run.path);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inner = scriptedModelCaller(script.model.slice(1));
    const slowModel = async function* (...args: Parameters<ModelCaller>) {
      await gate;
      yield* inner(...args);
    } as unknown as ModelCaller;
    const first = drain(resumeFromLog(run.path, { tools: scriptedToolRuntime(script.tools), deps: { callModel: slowModel } }));
    while (!existsSync(`${run.path}.lock`)) await new Promise((r) => setTimeout(r, 10));

    const scenario = join(mkdtempSync(join(tmpdir(), 'turnloop-lock-')), 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ model: script.model.slice(1).map(({ content, stop_reason }) => ({ content, stop_reason })), tools: script.tools }));
    const before = readFileSync(run.path, 'utf8');
    const second = await runCli(['resume', run.path, '--fake-api', scenario, '--script-from-start']);
    expect(second.stderr).toMatch(new RegExp(`is being written by process ${process.pid} on .*: one writer per log`));
    expect(second.code).toBe(2);

    open();
    expect(await first).toEqual({ reason: 'completed' });
    expect(readFileSync(run.path, 'utf8').startsWith(before.trimEnd())).toBe(true);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
    expect(existsSync(`${run.path}.lock`)).toBe(false);
  });

  it('a recorder of a file another recorder holds throws LogLockedError; after close() the file is free', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turnloop-lock-')), 'run.jsonl');
    const recorder = createSessionRecorder(path, { config: {} });
    expect(() => createSessionRecorder(path, { config: {}, continueFrom: { index: 0, hash: '' } })).toThrow(LogLockedError);
    recorder.close();
    createSessionRecorder(path, { config: {}, continueFrom: { index: 0, hash: '' } }).close();
  });

  it('a lock left by a process that died is taken over; a live holder is not', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turnloop-lock-')), 'run.jsonl');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: Number(dead.stdout), host: hostname(), since: '2026-01-01T00:00:00Z' }));
    const lock = lockLog(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    expect(() => lockLog(path)).toThrow(/is being written by process \d+/);
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('release removes the lock file, and does not throw when it is gone already; the log can be locked again', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turnloop-lock-')), 'run.jsonl');
    const first = lockLog(path);
    first.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const second = lockLog(path);
    unlinkSync(`${path}.lock`);
    expect(() => second.release()).not.toThrow();
    lockLog(path).release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
