/**
 * `turnloop demo`, in-process: the scripted model fixes the sample project's null-pointer bug with the real
 * file tools in a temporary copy, and the command reports the diff, the terminal and the session log.
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR } from '../../../src/cli/demo/project-files.ts';
import { replay } from '../../../src/replay/index.ts';
import { runCli } from './capture-io.ts';

const VALIDATE = 'src/auth/validate.ts';

/** Temporary copies made by the demo runs, removed after the tests. */
const made: string[] = [];
const remember = (stdout: string) => made.push(...[...stdout.matchAll(/session log: (\S+)session\.jsonl/g)].map((m) => m[1]));
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('turnloop demo', () => {
  it('edits the copy (never the shipped sample) and reports the diff it applied', async () => {
    const result = await runCli(['demo', '--json']);
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout);
    made.push(dirname(outcome.project));
    expect(outcome.terminal).toEqual({ reason: 'completed' });
    expect(outcome.modelCalls).toBeGreaterThanOrEqual(3);
    expect(outcome.toolCalls).toEqual(['Grep', 'Glob', 'Read', 'Edit']);
    expect(readFileSync(join(outcome.project, VALIDATE), 'utf8')).toContain('if (user === null || !user.active) return false;');
    expect(readFileSync(join(DEMO_PROJECT_DIR, VALIDATE), 'utf8')).toContain('if (!user!.active) return false;');
    expect(outcome.diff).toBe(
      [
        `--- a/${VALIDATE}`,
        `+++ b/${VALIDATE}`,
        '@@ -2,6 +2,6 @@',
        ' ',
        ' /** True when the user may sign in: an active account with a non-empty token. */',
        ' export function validateUser(user: User | null): boolean {',
        '-  if (!user!.active) return false;',
        '-  return user!.token.length > 0;',
        '+  if (user === null || !user.active) return false;',
        '+  return user.token.length > 0;',
        ' }',
        '',
      ].join('\n'),
    );
    expect(replay(outcome.sessionLog).terminal?.reason).toBe('completed');
  });

  it('shows the run as plain lines when stdout is not a TTY, then the diff, terminal and session log', async () => {
    const { code, stdout } = await runCli(['demo']);
    remember(stdout);
    expect(code).toBe(0);
    expect(stdout).toContain('prompt:  fix the null pointer bug in src/auth/validate.ts');
    expect(stdout).toContain('assistant → Grep');
    expect(stdout).toContain('── next_turn ──');
    expect(stdout).toContain('+  if (user === null || !user.active) return false;');
    expect(stdout).toMatch(/terminal: completed after 4 model calls/);
    expect(stdout).toMatch(/session log: .*session\.jsonl/);
    expect(stdout).not.toContain('\r');
  });

  it('draws a one-line progress (turn, phase, tokens) on a TTY', async () => {
    const { code, stdout } = await runCli(['demo'], { tty: true });
    remember(stdout.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(code).toBe(0);
    expect(stdout).toMatch(/turn \d+ · \w+ · [\d,]+ tokens/);
    expect(stdout).toContain('\r\u001b[2K');
  });
});
