/**
 * The explorer visits every state of a small config: all 17 transitions and 10 terminals, no violation, and the
 * answer paths it reports replay to the states it says.
 */
import { describe, expect, it } from 'vitest';
import { computeBounds } from '../../../src/bounds/compute-bounds.ts';
import { exploreLoop } from '../../../src/bounds/explore-loop.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../../src/data/outcomes.ts';
import { AUTOCOMPACT_CONFIG, AUTOCOMPACT_PARAMS, SMALL_CONFIG, SMALL_PARAMS } from './small-configs.ts';

describe('exploreLoop', () => {
  it('explores the small config completely: every transition and terminal, no violation', () => {
    const started = performance.now();
    const result = exploreLoop(SMALL_CONFIG, SMALL_PARAMS);
    const seconds = (performance.now() - started) / 1000;
    expect(result.violations).toEqual([]);
    expect(result.complete).toBe(true);
    expect(result.transitionsCovered).toEqual([...CONTINUE_REASONS, ...TERMINAL_REASONS]);
    expect(result.terminalsReached).toEqual([...TERMINAL_REASONS]);
    expect(result.states).toBeGreaterThan(500);
    expect(result.edges).toBeGreaterThanOrEqual(result.states - 1);
    expect(seconds).toBeLessThan(60);
  });

  it('explores the default features (autocompact, reactive compact) completely with the breaker holding', () => {
    const result = exploreLoop(AUTOCOMPACT_CONFIG, AUTOCOMPACT_PARAMS);
    expect(result.violations).toEqual([]);
    expect(result.complete).toBe(true);
    expect(result.transitionsCovered).toContain('reactive_compact_retry');
    expect(result.transitionsCovered).toContain('next_turn');
  });

  it('catches a bound that is too tight: recoveries counted once per run instead of once per segment', () => {
    const honest = computeBounds(AUTOCOMPACT_CONFIG, AUTOCOMPACT_PARAMS);
    const tooTight = { ...honest, continues: { ...honest.continues, max_output_tokens_recovery: AUTOCOMPACT_CONFIG.limits.maxOutputTokensRecovery } };
    const result = exploreLoop(AUTOCOMPACT_CONFIG, AUTOCOMPACT_PARAMS, { bounds: tooTight, stopAtFirstViolation: true });
    expect(result.violations[0]?.invariant).toBe('within_bounds');
    expect(result.violations[0]?.detail).toMatch(/^max_output_tokens_recovery #3 > bound 2/);
    // A new segment (a turn or a blocking stop hook) reset the recovery count on the way.
    expect(result.violations[0]?.path.some((l) => l === 'model:tool' || l === 'model:tool_large' || l === 'hooks:block')).toBe(true);
  });

  it('says it is partial when the state budget runs out', () => {
    const result = exploreLoop(SMALL_CONFIG, SMALL_PARAMS, { maxStates: 50 });
    expect(result.complete).toBe(false);
    expect(result.states).toBe(50);
  });

  it('says it is partial when the depth runs out', () => {
    const result = exploreLoop(SMALL_CONFIG, SMALL_PARAMS, { maxDepth: 3 });
    expect(result.complete).toBe(false);
    expect(result.maxDepth).toBeLessThanOrEqual(3);
  });

  it('is deterministic', () => {
    const a = exploreLoop(SMALL_CONFIG, SMALL_PARAMS, { maxStates: 400 });
    const b = exploreLoop(SMALL_CONFIG, SMALL_PARAMS, { maxStates: 400 });
    expect({ ...a, bounds: null }).toEqual({ ...b, bounds: null });
  });
});
