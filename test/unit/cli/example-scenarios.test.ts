/**
 * Every scenario in examples/scenarios/ reaches the outcome recorded in its `expect`, and together they cover
 * the Terminal reasons but `model_error` (a thrown bug, see below) and all 7 Continue reasons (docs/loop.md §5). Simulated in-process, through the real SDK and the
 * loopback fake API.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outcomeMismatches } from '../../../src/scenario/check-outcome.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../../src/data/outcomes.ts';
import { REPO_ROOT } from './capture-io.ts';

const DIR = join(REPO_ROOT, 'examples/scenarios');
const files = readdirSync(DIR).filter((file) => file.endsWith('.json')).sort();
const scenarios = files.map((file) => ({ file, scenario: loadScenario(join(DIR, file), REPO_ROOT) }));

describe('example scenarios (examples/scenarios/)', () => {
  it('ships at least one scenario per Terminal and per Continue reason, each with an expected outcome', () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const { file, scenario } of scenarios) expect(scenario.expect, `${file} has no expect`).toBeDefined();
    const terminals = new Set(scenarios.map(({ scenario }) => scenario.expect?.terminal));
    const continues = new Set(scenarios.flatMap(({ scenario }) => scenario.expect?.transitions ?? []));
    // `model_error` is only for an error thrown by a bug in the caller or runtime (docs/loop.md §4.5): the real adapter
    // answers every scripted API failure with an API-error message, so no scenario reaches it. terminals.test.ts
    // pins it with a model caller that throws.
    expect([...TERMINAL_REASONS].filter((reason) => reason !== 'model_error' && !terminals.has(reason))).toEqual([]);
    expect([...CONTINUE_REASONS].filter((reason) => !continues.has(reason))).toEqual([]);
  });

  it.each(scenarios.map(({ file, scenario }) => [file, scenario] as const))('%s reaches its expected outcome', async (_file, scenario) => {
    const result = await simulateScenario(scenario);
    expect(outcomeMismatches(scenario.expect!, result, scenario.agents)).toEqual([]);
  });
});
