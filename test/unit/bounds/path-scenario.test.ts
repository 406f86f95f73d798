/**
 * A path of abstract answers, written as a scenario, reproduces its run through the real adapter, SDK and fake
 * API: for every transition the small config reaches, the shortest path to it, simulated, ends as the reducer
 * said (terminal, model calls, Continues in order).
 */
import { describe, expect, it } from 'vitest';
import { exploreLoop } from '../../../src/bounds/explore-loop.ts';
import { pathToScenario } from '../../../src/bounds/path-scenario.ts';
import { outcomeMismatches } from '../../../src/scenario/check-outcome.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { SMALL_CONFIG, SMALL_OVERRIDES, SMALL_PARAMS } from './small-configs.ts';

const explored = exploreLoop(SMALL_CONFIG, SMALL_PARAMS);
const written = Object.entries(explored.examplePaths).map(([reason, path]) => {
  const { scenario, reached, reproducible } = pathToScenario(path, SMALL_CONFIG, SMALL_OVERRIDES, SMALL_PARAMS, `shortest path to ${reason}`);
  return { reason, path, scenario, reached, reproducible };
});

describe('path → scenario', () => {
  it('has a scenario form for every transition but the two reached by a thrown error first', () => {
    const unreproducible = written.filter((w) => !w.reproducible).map((w) => w.reason);
    expect(unreproducible.sort()).toEqual(['image_error', 'model_error']);
  });

  it.each(written.filter((w) => w.reproducible).map((w) => [w.reason, w] as const))('the shortest path to %s, simulated, ends as explored', async (_reason, w) => {
    const scenario = parseScenario(JSON.parse(JSON.stringify(w.scenario)), `${w.reason}.json`);
    const result = await simulateScenario(scenario);
    const why = `path: ${w.path.join(' → ')}`;
    if (w.reached.terminal !== null) {
      expect(outcomeMismatches(scenario.expect!, result, scenario.agents), why).toEqual([]);
    } else {
      // A path to a Continue stops mid-run: the next request finds the script used up (a 500, an API error),
      // unless a cap refuses that request first.
      expect(result.transitions, why).toEqual(w.reached.transitions);
      if (result.terminal.reason === 'max_budget_usd' || result.terminal.reason === 'max_turns') expect(result.modelCalls, why).toBe(w.reached.modelCalls);
      else {
        expect(result.modelCalls, why).toBe(w.reached.modelCalls + 1);
        expect(result.scriptExhausted, why).toBe(true);
      }
    }
  });
});
