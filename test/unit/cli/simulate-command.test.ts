/**
 * `turnloop simulate`, in-process through `main(argv, io)`: deterministic JSON, the readable transcript,
 * session recording, and the exit codes of --strict and --check.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/replay/index.ts';
import { runCli } from './capture-io.ts';

const example = (name: string) => `examples/scenarios/${name}.json`;

describe('turnloop simulate', () => {
  it('prints identical JSON for two runs of the same scenario (ids and clock are deterministic)', async () => {
    for (const name of ['completed', 'reactive-compact-retry', 'aborted-tools', 'stream-cut-retry']) {
      const first = await runCli(['simulate', example(name), '--json']);
      const second = await runCli(['simulate', example(name), '--json']);
      expect(first.code).toBe(0);
      expect(second.stdout).toBe(first.stdout);
    }
  });

  it('reports the documented JSON fields', async () => {
    const { stdout } = await runCli(['simulate', example('stop-hook-blocking'), '--json']);
    const result = JSON.parse(stdout);
    expect(Object.keys(result)).toEqual([
      'terminal',
      'transitions',
      'modelCalls',
      'requests',
      'emitted',
      'toolCalls',
      'stopHookCalls',
      'compactions',
      'scriptExhausted',
      'rejections',
      'agentRuns',
    ]);
    expect(result).toMatchObject({ terminal: { reason: 'completed' }, transitions: ['stop_hook_blocking'], modelCalls: 2, stopHookCalls: 2, rejections: [], agentRuns: [] });
    expect(result.requests).toHaveLength(2);
  });

  it('prints a readable transcript with each transition and the terminal, without colour when not a TTY', async () => {
    const { code, stdout } = await runCli(['simulate', example('completed')]);
    expect(code).toBe(0);
    expect(stdout).toContain('── continue: next_turn (turn 2) ──');
    expect(stdout).toContain('══ terminal: completed ══');
    expect(stdout).toContain('assistant → Edit');
    expect(stdout).not.toContain('\u001b[');
  });

  it('prints a line for every compaction that happens or fails, and says when the circuit breaker opens', async () => {
    const done = await runCli(['simulate', example('autocompact'), '--check']);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/── autocompact: 170,0\d\d → [\d,]+ tokens \(turn 2\) ──/);
    const failed = await runCli(['simulate', example('long-session-compactor-too-long'), '--check']);
    expect(failed.code).toBe(0);
    const lines = failed.stdout.split('\n').filter((line) => line.includes('autocompact failed'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^── autocompact failed \(1 in a row\): .*prompt is too long: \d+ tokens > 40000 maximum ──$/);
    expect(lines[2]).toContain('(3 in a row; circuit breaker open, no more autocompact)');
  });

  it('colours the transcript on a TTY', async () => {
    const { stdout } = await runCli(['simulate', example('completed')], { tty: true });
    expect(stdout).toContain('\u001b[32m══ terminal: completed ══');
  });

  it('records a session log that replays with every hash matching', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'turnloop-sim-')), 'run.jsonl');
    writeFileSync(log, 'stale content that must be replaced\n');
    // A file that holds data is replaced only with --force (without it: exit 2, test/adversarial/cli-exit-status.test.ts).
    const { code, stderr } = await runCli(['simulate', example('next-turn-one-tool'), '--record', log, '--force']);
    expect(code).toBe(0);
    expect(stderr).toContain(log);
    expect(readFileSync(log, 'utf8')).not.toContain('stale');
    expect(replay(log).terminal?.reason).toBe('completed');
  });

  it('--strict exits 1 on a failure terminal and 0 on completed', async () => {
    expect((await runCli(['simulate', example('api-error-auth'), '--strict'])).code).toBe(1);
    expect((await runCli(['simulate', example('api-error-auth')])).code).toBe(0);
    expect((await runCli(['simulate', example('next-turn-one-tool'), '--strict'])).code).toBe(0);
  });

  it('--check exits 1 when the outcome differs from "expect"', async () => {
    const scenario = JSON.parse(readFileSync(example('next-turn-one-tool'), 'utf8'));
    scenario.expect = { terminal: 'max_turns' };
    const file = join(mkdtempSync(join(tmpdir(), 'turnloop-sim-')), 'wrong-expect.json');
    writeFileSync(file, JSON.stringify(scenario));
    const wrong = await runCli(['simulate', file, '--check']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('unexpected outcome: terminal: expected "max_turns", got "completed"');
    expect((await runCli(['simulate', example('next-turn-one-tool'), '--check'])).code).toBe(0);
  });
});
