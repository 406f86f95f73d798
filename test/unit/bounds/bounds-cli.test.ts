/** `turnloop bounds` and `turnloop explore` from the command line: figures, witness, bad input. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/capture-io.ts';
import { SMALL_OVERRIDES } from './small-configs.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('turnloop bounds', () => {
  it('--json prints every figure and its rules; maxTurns bounds the turns', async () => {
    const run = await runCli(['bounds', '--params', '{"maxTurns":2}', '--config', '{"limits":{"maxStopHookBlocking":1}}', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown> & { continues: Record<string, number>; because: string[] };
    for (const key of ['modelCalls', 'httpAttempts', 'outputTokens', 'inputTokens', 'costUsd']) expect(typeof out[key]).toBe('number');
    expect(out.continues.next_turn).toBe(1);
    expect(out.continues.stop_hook_blocking).toBe(1);
    expect(out.because.some((rule) => rule.includes('maxTurns'))).toBe(true);
  });

  it('an unbounded count is null in JSON and names the switch that bounds it', async () => {
    const run = await runCli(['bounds', '--json']);
    const out = JSON.parse(run.stdout) as { structuralModelCalls: number | null; mainModelCalls: number; finiteWith: string[] };
    expect(out.structuralModelCalls).toBeNull();
    expect(out.mainModelCalls).toBe(1000);
    expect(out.finiteWith.join('\n')).toContain('params.maxTurns');
  });

  it('--witness writes a scenario that simulate runs to exactly the model-call bound', async () => {
    const witness = join(dir, 'witness.json');
    const bounds = await runCli(['bounds', '--params', '{"maxTurns":2}', '--config', '{"limits":{"maxStopHookBlocking":1,"maxOutputTokensRecovery":1}}', '--json', '--witness', witness]);
    expect(bounds.code).toBe(0);
    expect(bounds.stderr).toContain('reaches the bound');
    const expected = (JSON.parse(bounds.stdout) as { mainModelCalls: number }).mainModelCalls;
    const simulated = await runCli(['simulate', witness, '--json', '--check']);
    expect(simulated.code).toBe(0);
    expect((JSON.parse(simulated.stdout) as { modelCalls: number }).modelCalls).toBe(expected);
    expect(JSON.parse(readFileSync(witness, 'utf8')).expect.modelCalls).toBe(expected);
  });

  it('reads a scenario file', async () => {
    const run = await runCli(['bounds', 'examples/scenarios/max-turns.json', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { continues: { next_turn: number } }).continues.next_turn).toBe(0);
  });

  it.each([
    [['bounds', '--params', '{"maxTurns":-1}'], '--params: maxTurns'],
    [['bounds', '--config', '{"limits":{"maxModelCals":3}}'], '--config'],
    [['bounds', '--params', 'not json'], '--params expects a JSON object'],
    [['bounds', 'a.json', 'b.json'], 'at most one scenario file'],
    [['explore', '--max-states', '0'], '--max-states expects a positive integer'],
  ])('turnloop %j is bad input (exit 2)', async (argv, message) => {
    const run = await runCli(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('turnloop explore', () => {
  it('explores the small config completely with no violation (exit 0)', async () => {
    const run = await runCli(['explore', '--config', JSON.stringify(SMALL_OVERRIDES), '--params', '{"maxTurns":2,"tokenBudget":1500,"fallbackModel":"claude-haiku-4-5"}', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { complete: boolean; states: number; transitionsCovered: string[]; terminalsReached: string[]; violations: unknown[] };
    expect(out.complete).toBe(true);
    expect(out.transitionsCovered).toHaveLength(18);
    expect(out.terminalsReached).toHaveLength(11);
    expect(out.violations).toEqual([]);
  });

  it('says partial when --max-states cuts it short', async () => {
    const run = await runCli(['explore', '--max-states', '100']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^partial: 100 states/);
  });
});
