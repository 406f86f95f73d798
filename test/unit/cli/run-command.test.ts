/** `turnloop run` without an API key: one clear paragraph that points to `turnloop demo`, exit 2, no network. */
import { describe, expect, it } from 'vitest';
import { MISSING_KEY_MESSAGE } from '../../../src/cli/commands/run.ts';
import { runCli } from './capture-io.ts';

describe('turnloop run', () => {
  it('without ANTHROPIC_API_KEY explains what to do and points to turnloop demo (exit 2)', async () => {
    const result = await runCli(['run', 'fix the bug'], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`turnloop run: ${MISSING_KEY_MESSAGE}\n`);
    expect(MISSING_KEY_MESSAGE).toContain('ANTHROPIC_API_KEY');
    expect(MISSING_KEY_MESSAGE).toContain("'turnloop demo'");
    expect(MISSING_KEY_MESSAGE).not.toContain('\n');
  });

  it('an empty key counts as missing', async () => {
    expect((await runCli(['run', 'fix the bug'], { env: { ANTHROPIC_API_KEY: '' } })).code).toBe(2);
  });

  it('a --cwd that does not exist is bad input', async () => {
    const result = await runCli(['run', 'hi', '--cwd', '/no/such/dir'], { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--cwd: no such directory');
  });
});
