/**
 * Small first-contact fixes, each as a user meets it: every scenario problem under `simulate --json`, `run --cwd`
 * naming a file as a file, `replay --at -1` explained, help texts printed as written (no `**` from the redactor)
 * and every flag of a usage line described below it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../../src/cli/commands/index.ts';
import { ScenarioFileError } from '../../../src/scenario/load-scenario.ts';
import { runCli } from './capture-io.ts';

const scratch = mkdtempSync(join(tmpdir(), 'turnloop-cli-input-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('simulate --json on a scenario that does not validate', () => {
  it('lists every problem as JSON on stdout (exit 2), not "(and 1 more problem)"', async () => {
    const file = join(scratch, 'two-problems.json');
    writeFileSync(file, JSON.stringify({ params: { prompt: 'hi', maxTurns: 0 }, bogus: true }));
    const result = await runCli(['simulate', file, '--json'], { cwd: scratch });
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as { error: string; problems: Array<{ path: string | null; expected: string }> };
    expect(report.error).toBe('INVALID_SCENARIO');
    expect(report.problems).toHaveLength(2);
    expect(report.problems.map((p) => p.path).sort()).toEqual(['bogus', 'params.maxTurns']);
    expect(result.stderr).toContain('2 problems (listed on stdout)');
    // Without --json: one line, the first problem and then the others, named.
    const plain = await runCli(['simulate', file], { cwd: scratch });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/params\.maxTurns: .* \(and 1 more problem: bogus: unknown key; expected one of: .*\)\n$/);
    expect(plain.stderr.split('\n')).toHaveLength(2);
  });

  it('names the next three problems without --json and counts the rest', () => {
    const others = ['a', 'b', 'c'].map((path) => ({ path, expected: `a number at ${path}` }));
    const error = new ScenarioFileError('s.json', 'params.maxTurns', 'a positive integer', 5, others);
    expect(error.message).toBe(
      's.json: params.maxTurns: a positive integer (and 5 more problems: a: a number at a; b: a number at b; c: a number at c; 2 more (simulate --json lists every problem))',
    );
    expect(new ScenarioFileError('s.json', null, 'not valid JSON').message).toBe('s.json: not valid JSON');
  });
});

describe('run --cwd', () => {
  it('naming a file says it is a file, not that it does not exist', async () => {
    const file = join(scratch, 'a-file.txt');
    writeFileSync(file, 'x');
    const result = await runCli(['run', 'hi', '--cwd', file], { env: { ANTHROPIC_API_KEY: 'k' }, cwd: scratch });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--cwd: ${file} is a file, not a directory`);
    expect(result.stderr).not.toContain('no such directory');
  });
});

describe('replay --at', () => {
  it('-1 is explained (write --at=-1), and a negative index is refused as such', async () => {
    const dashed = await runCli(['replay', 'x.jsonl', '--at', '-1'], { cwd: scratch });
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain("--at -1: a value that starts with a dash is read as an option; write --at=-1");
    expect(dashed.stderr).not.toContain('ambiguous');
    const log = join(scratch, 'run.jsonl');
    expect((await runCli(['simulate', '--example', 'completed', '--record', log], { cwd: scratch })).code).toBe(0);
    const negative = await runCli(['replay', log, '--at=-1'], { cwd: scratch });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--at expects an event index (0 = the initial state');
  });
});

describe('--help', () => {
  it('replay --help is printed as written: no "**" where the redactor saw "KEY: an"', async () => {
    const help = (await runCli(['replay', '--help'])).stdout;
    expect(help).not.toContain('**');
    expect(help).toContain('with KEY: an HMAC secret file');
    expect((await runCli(['help', 'replay'])).stdout).toBe(help);
  });

  it.each(['resume', 'run', 'replay', 'simulate'])('%s --help describes every flag its usage line lists', async (name) => {
    const help = (await runCli([name, '--help'])).stdout;
    const usage = help.slice(0, help.indexOf('\n\n'));
    const flags = [...new Set([...usage.matchAll(/\[?(--[a-z][a-z-]*)/g)].map((m) => m[1]!))];
    expect(flags.length).toBeGreaterThan(0);
    const body = help.slice(usage.length);
    for (const flag of flags) expect(body, `${name} --help: ${flag}`).toMatch(new RegExp(`^ +${flag}\\b`, 'm'));
  });

  it('every command is in the list this test knows', () => {
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['resume', 'run', 'replay', 'simulate']));
  });
});
