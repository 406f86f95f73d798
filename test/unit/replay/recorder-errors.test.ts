/**
 * A recorder that cannot write says so, once: to `onError`, or else as a process warning; the run itself goes on
 * (an observer must not throw) and the failure stays readable in `recorder.error`.
 */
import { tmpdir } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { runQuery } from '../../../src/api/query.ts';
import { scriptedModelCaller } from '../../../src/replay/scripted-deps.ts';
import { messageBuilders } from '../../../src/testing/message-builders.ts';

/** A target that takes `ok` lines, then fails like a full disk. */
function failingTarget(ok: number) {
  let written = 0;
  return {
    write(text: string) {
      if (written >= ok) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      written += 1;
      return text.length;
    },
  };
}

describe('a recorder that cannot write', () => {
  it('reports the failure once through onError, and the run still completes', async () => {
    const m = messageBuilders();
    const errors: Error[] = [];
    const { terminal } = await runQuery({
      messages: [m.user('hi')],
      deps: { callModel: scriptedModelCaller([m.reply.text('one'), m.reply.text('two')]) },
      record: { target: failingTarget(2), onError: (error) => errors.push(error) },
    });
    expect(terminal.reason).toBe('completed');
    expect(errors.map((e) => e.message)).toEqual(['ENOSPC: no space left on device, write']);
  });

  it('without onError, emits one process warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const m = messageBuilders();
      const { terminal } = await runQuery({
        messages: [m.user('hi')],
        deps: { callModel: scriptedModelCaller([m.reply.text('one')]) },
        record: failingTarget(1),
      });
      expect(terminal.reason).toBe('completed');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toBe('session recording stopped: ENOSPC: no space left on device, write');
    } finally {
      warn.mockRestore();
    }
  });

  it('a log file that cannot be opened is an error before the run starts', async () => {
    const m = messageBuilders();
    const run = runQuery({ messages: [m.user('hi')], deps: { callModel: scriptedModelCaller([m.reply.text('one')]) }, record: tmpdir() });
    await expect(run).rejects.toThrow(/EISDIR/);
  });
});
