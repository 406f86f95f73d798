/**
 * Recording a new session into a file that already holds one is refused before anything is written (a second
 * header would make both unreadable); an empty file is fine; resume still appends.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runQuery } from '../../../src/api/query.ts';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { loadSessionLog, replay, SessionLogExistsError } from '../../../src/replay/index.ts';
import { scriptedModelCaller } from '../../../src/replay/scripted-deps.ts';
import { messageBuilders } from '../../../src/testing/message-builders.ts';
import { runCli } from '../cli/capture-io.ts';

describe('recording into a file that already holds a session', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const record = (target: string) => {
    const m = messageBuilders();
    return runQuery({ messages: [m.user('hi')], deps: { callModel: scriptedModelCaller([m.reply.text('hello')]) }, record: target });
  };

  it('query({ record }) throws SessionLogExistsError and leaves the first log as it was, replayable', async () => {
    dir = mkdtempSync(join(tmpdir(), 'turnloop-exists-'));
    const log = join(dir, 'run.jsonl');
    await record(log);
    const first = readFileSync(log, 'utf8');
    const second = await record(log).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(SessionLogExistsError);
    expect((second as SessionLogExistsError).file).toBe(log);
    expect(readFileSync(log, 'utf8')).toBe(first);
    expect(replay(loadSessionLog(log)).terminal?.reason).toBe('completed');
  });

  it('an empty file is recorded into', async () => {
    dir = mkdtempSync(join(tmpdir(), 'turnloop-exists-'));
    const log = join(dir, 'run.jsonl');
    writeFileSync(log, '');
    expect((await record(log)).terminal.reason).toBe('completed');
    expect(replay(loadSessionLog(log)).terminal?.reason).toBe('completed');
  });

  it('turnloop run --record FILE on an existing log exits 2, names the file, sends no request', async () => {
    dir = mkdtempSync(join(tmpdir(), 'turnloop-exists-'));
    const log = join(dir, 'run.jsonl');
    await record(log);
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'hi' }] }] });
    try {
      const result = await runCli(['run', 'hi', '--yes', '--record', 'run.jsonl'], { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL }, cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${log} already holds a session log`);
      expect(api.requests).toHaveLength(0);
    } finally {
      await api.close();
    }
  });
});
