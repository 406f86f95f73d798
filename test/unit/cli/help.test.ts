/** `--help` of the simulate, demo and run commands: usage on stdout, exit 0, and listed by `turnloop --help`. */
import { describe, expect, it } from 'vitest';
import { runCli } from './capture-io.ts';

describe('--help', () => {
  it.each([
    ['simulate', 'Usage: turnloop simulate <scenario.json> [--json] [--record <log.jsonl>] [--strict]'],
    ['demo', 'Usage: turnloop demo'],
    ['run', 'Usage: turnloop run "<prompt>" [--cwd DIR] [--model M] [--max-turns N] [--yes]'],
  ])('turnloop %s --help prints its usage', async (command, usage) => {
    for (const flag of ['--help', '-h']) {
      const result = await runCli([command, flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith(usage)).toBe(true);
      expect(result.stderr).toBe('');
    }
  });

  it('turnloop --help lists the three commands', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['demo', 'simulate', 'run']) expect(stdout).toMatch(new RegExp(`^  ${command}\\s+\\S`, 'm'));
  });
});
