/**
 * The headless entry never leaves an Agent SDK program waiting: whatever ended the run (here stdout failing from its second write on, in the
 * middle of a stream-json session), the process's stdin is released, so nothing keeps the process alive while the
 * SDK holds its end of stdin open.
 */
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlessMain } from '../../../src/cli/headless-entry.ts';

const HELLO = resolve(import.meta.dirname, '../../../examples/agent-sdk/hello.json');

describe('headlessMain', () => {
  it('releases stdin when the session ends on an error while the program still holds stdin open', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'turnloop-entry-'));
    try {
      const stdin = new PassThrough();
      let writes = 0;
      const stderr: string[] = [];
      const io = {
        stdout: {
          write(): boolean {
            writes += 1;
            if (writes >= 2) throw new Error('stdout went away');
            return true;
          },
        },
        stderr: { write: (text: string) => stderr.push(text) },
        env: {},
        cwd,
        stdin,
      };
      stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'Say hello' }, parent_tool_use_id: null, session_id: '' })}\n`);
      // stdin is never ended: the SDK keeps it open between messages.
      const code = await headlessMain(['--output-format', 'stream-json', '--input-format', 'stream-json', '--verbose', '--fake-api', HELLO, '--no-session-persistence'], io);
      expect(code).toBe(1);
      expect(stderr.join('')).toContain('stdout went away');
      expect(stdin.destroyed).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
