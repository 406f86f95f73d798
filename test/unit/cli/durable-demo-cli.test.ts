/**
 * `turnloop durable-demo` on bad input: exit code 2 and one clear message, before anything is started. (The demo
 * itself runs against a real Postgres in the Postgres suite, `npm run test:durable`.)
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { findPostgresBin } from '../../../src/dbos/temp-postgres.ts';

function io(env: Record<string, string> = {}): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    stdout: { write: (text: string) => ((captured.out += text), true), isTTY: false },
    stderr: { write: (text: string) => ((captured.err += text), true) },
    env,
    cwd: process.cwd(),
  };
  return captured;
}

describe('turnloop durable-demo', () => {
  it.each([
    [['--kill-at', '21'], /--kill-at expects a turn from 0 to 20, got '21'/],
    [['--kill-at', 'x'], /--kill-at expects a turn from 0 to 20, got 'x'/],
    [['--turns', '5', '--kill-at', '6'], /--kill-at expects a turn from 0 to 5, got '6'/],
    [['--kill-during', 'lunch'], /--kill-during expects one of model, tool, between, got 'lunch'/],
    [['--postgres', 'mysql://x'], /--postgres expects a postgresql:\/\/ URL, got 'mysql:\/\/x'/],
    [['--turns', '0'], /--turns expects a positive integer, got '0'/],
    [['extra'], /unexpected argument 'extra'/],
    [['--sessions', '4'], /--sessions needs --workers \(a fleet\)/],
    [['--chaos'], /--chaos needs --workers \(a fleet\)/],
    [['--per-worker', '2'], /--per-worker needs --workers \(a fleet\)/],
    [['--workers', '2', '--per-worker', '0'], /--per-worker expects a positive integer, got '0'/],
    [['--workers', '1', '--chaos'], /--chaos needs at least 2 workers/],
    [['--workers', '3', '--kill-at', '4'], /--kill-at is for a single worker/],
    [['--workers', '0'], /--workers expects a positive integer, got '0'/],
    [['--workers', '2', '--model-delay', 'soon'], /--model-delay expects milliseconds from 0 to 60000, got 'soon'/],
  ])('refuses %j with exit code 2', async (args, message) => {
    const captured = io();
    expect(await main(['durable-demo', ...args], captured)).toBe(2);
    expect(captured.err).toMatch(message);
    expect(captured.out).toBe('');
  });

  it('says how to get a Postgres when there is none (exit 2)', async () => {
    const captured = io({ PG_BIN: '/nonexistent/postgres/bin' });
    expect(await main(['durable-demo', '--json'], captured)).toBe(2);
    expect(captured.err).toContain('apt-get install -y postgresql');
    expect(captured.err).toContain('--postgres <url>');
  });

  it('finds Debian binaries, and only $PG_BIN when it is set', () => {
    expect(findPostgresBin({ PG_BIN: '/nonexistent' })).toBeNull();
    expect(findPostgresBin({}, '/nonexistent/lib/postgresql')).toBeNull();
  });
});
