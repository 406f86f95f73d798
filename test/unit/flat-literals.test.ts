/**
 * Functions that run every turn (or every run) build no object or array literal directly inside another literal
 * (docs/benchmarks.md "Round 18: core"): V8 copies such a literal from its boilerplate by a runtime call (a deep
 * copy), about 2.5 times the cost of a flat literal plus its inner objects made apart, in the baseline tier a cold
 * turn runs in. The inner objects are made first and the literal refers to them; the members and their order are
 * the same (every driven test compares states with `step()`'s). This holds their source to that.
 */
import { describe, expect, it } from 'vitest';
import { emptyIteration } from '../../src/machine/machine-context.ts';
import { createInitialContext } from '../../src/machine/context-conversions.ts';
import { continueNextTurn } from '../../src/machine/actions/continue-actions.ts';
import { recordUsage } from '../../src/machine/actions/sampling-actions.ts';

/** A member whose value is an object or array literal: `name: {` or `name: [`. */
function nestsLiteral(fn: (...args: never[]) => unknown): boolean {
  return /\w:\s*[[{]/.test(fn.toString());
}

describe('the per-turn literals', () => {
  const hot = { emptyIteration, createInitialContext, continueNextTurn, recordUsage };
  for (const [name, fn] of Object.entries(hot)) {
    it(`hold no literal inside a literal: ${name}`, () => {
      expect(nestsLiteral(fn as never)).toBe(false);
    });
  }

  it('the check sees a nested literal where there is one', () => {
    expect(nestsLiteral((() => ({ a: [], b: 1 })) as never)).toBe(true);
    expect(nestsLiteral((() => ({ a: { b: 1 } })) as never)).toBe(true);
    expect(nestsLiteral(((x: number) => ({ a: x })) as never)).toBe(false);
  });

  it('emptyIteration gives fresh lists each time, in the same member order (guard)', () => {
    const a = emptyIteration();
    const b = emptyIteration();
    expect(a).toEqual(b);
    expect(a.toolUses).not.toBe(b.toolUses);
    expect(a.concurrencySafe).not.toBe(b.concurrencySafe);
    expect(Object.keys(a)).toEqual(['assistantMessages', 'toolUses', 'concurrencySafe', 'toolResults', 'answeredToolUseIds', 'needsFollowUp', 'withheld', 'abortReason', 'compacted', 'tokensFreed', 'streamingToolsStarted', 'preventContinuation', 'usage', 'stopHookOutcome', 'collapseCommitted']);
  });
});
