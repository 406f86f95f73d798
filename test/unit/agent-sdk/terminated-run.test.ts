/**
 * An SDK program that aborts its query ends the executable with SIGTERM. The real executable kills the command it
 * was running; turnloop left the Bash command's process group running, which went on writing files after the
 * program had been told the run was cancelled (found by test/agent-sdk's public "cancel" program).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../../bin/turnloop.mjs');

it('SIGTERM during a Bash call kills the command: nothing it would do later happens', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'terminated-run-'));
  const script = {
    model: [
      { content: [{ type: 'tool_use', id: 'toolu_slow', name: 'Bash', input: { command: 'touch started && sleep 2 && touch finished' } }], stop_reason: 'tool_use' },
      { content: [{ type: 'text', text: 'Done.' }] },
    ],
  };
  writeFileSync(join(cwd, 'script.json'), JSON.stringify(script));
  const child = spawn(process.execPath, [BIN, '-p', 'Run it.', '--fake-api', 'script.json', '--allowedTools', 'Bash'], { cwd, stdio: 'ignore' });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  // Wait until the command runs, then end the executable as the SDK does.
  for (let i = 0; i < 200 && !existsSync(join(cwd, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
  expect(existsSync(join(cwd, 'started')), 'the command never started').toBe(true);
  child.kill('SIGTERM');
  expect(await exited).toBe(143);
  await new Promise((r) => setTimeout(r, 2_500));
  expect(existsSync(join(cwd, 'finished'))).toBe(false);
}, 20_000);
