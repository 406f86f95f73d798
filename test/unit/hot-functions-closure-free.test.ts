/**
 * Functions that run on every step or every turn make no closure on their usual path (docs/benchmarks.md "Round 17:
 * core"): a function that makes one keeps the variables the closure captures in a context object, allocated on
 * every call and read slot by slot, even on calls that never reach the closure. Their rare path (a tool result to
 * replace) lives in a function of its own. This holds their source to that.
 */
import { describe, expect, it } from 'vitest';
import { budgetToolResults } from '../../src/context/tool-result-budget.ts';
import { stepWithMemo } from '../../src/reducer/stepper.ts';

/** An arrow, a function expression or a method shorthand inside the function's own body. */
function makesClosure(fn: (...args: never[]) => unknown): boolean {
  const source = fn.toString();
  const body = source.slice(source.indexOf('{') + 1);
  return /=>|\bfunction\b/.test(body);
}

describe('the hot functions', () => {
  it('make no closure: budgetToolResults (every turn)', () => {
    expect(makesClosure(budgetToolResults)).toBe(false);
  });

  it('make no closure: stepWithMemo (every step; its miss path is a function of its own)', () => {
    expect(makesClosure(stepWithMemo)).toBe(false);
  });

  it('the check sees a closure where there is one', () => {
    expect(makesClosure(function (a: number) { return [a].map((x) => x + a); } as never)).toBe(true);
  });
});
