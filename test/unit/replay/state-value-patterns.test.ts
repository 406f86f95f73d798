/**
 * `stateValuePatterns` (src/replay/state-value-patterns.ts), which replay's one pass uses to compare a replayed state
 * value with a line's recorded `at.v`: each pattern matches the value's text exactly at an offset, values seen
 * earlier than the last come back right, and a value object that is not frozen is read again when it changes in
 * place (only frozen values are remembered by identity).
 */
import { describe, expect, it } from 'vitest';
import type { LoopState } from '../../../src/data/state.ts';
import { stateValuePatterns } from '../../../src/replay/state-value-patterns.ts';

type StateValue = LoopState['value'];

/** Whether the pattern covers text[from, to) exactly. */
function coversAt(pattern: RegExp, text: string, from: number, to: number): boolean {
  pattern.lastIndex = from;
  return pattern.test(text) && pattern.lastIndex === to;
}

describe('stateValuePatterns', () => {
  it('matches the dotted text of each value at an offset, values alternating', () => {
    const patternOf = stateValuePatterns();
    const pipeline = Object.freeze({ contextPipeline: 'microcompactPending' }) as StateValue;
    const exit = Object.freeze({ exitLadder: Object.freeze({ stopHooks: 'running' }) }) as StateValue;
    const text = '"v":"contextPipeline.microcompactPending","v":"sampling","v":"exitLadder.stopHooks.running"';
    for (let round = 0; round < 3; round++) {
      expect(coversAt(patternOf(pipeline), text, 5, 40)).toBe(true);
      expect(coversAt(patternOf('sampling' as StateValue), text, 47, 55)).toBe(true);
      expect(coversAt(patternOf(exit), text, 62, 90)).toBe(true);
      expect(coversAt(patternOf(pipeline), text, 47, 55)).toBe(false);
      expect(coversAt(patternOf(exit), text, 5, 40)).toBe(false);
    }
  });

  it('escapes the text: a dot matches a dot only', () => {
    const patternOf = stateValuePatterns();
    const value = Object.freeze({ a: 'b' }) as StateValue;
    expect(coversAt(patternOf(value), 'aXb', 0, 3)).toBe(false);
    expect(coversAt(patternOf(value), 'a.b', 0, 3)).toBe(true);
  });

  it('reads a value object that is not frozen again after it changed in place', () => {
    const patternOf = stateValuePatterns();
    const value = { contextPipeline: 'microcompactPending' } as Record<string, string>;
    const text = 'contextPipeline.microcompactPending contextPipeline.toolResultBudgetPending';
    expect(coversAt(patternOf(value as StateValue), text, 0, 35)).toBe(true);
    value.contextPipeline = 'toolResultBudgetPending';
    expect(coversAt(patternOf(value as StateValue), text, 36, 75)).toBe(true);
    expect(coversAt(patternOf(value as StateValue), text, 0, 35)).toBe(false);
    // A frozen parent whose child object is not frozen is read again too.
    const child = { stopHooks: 'running' } as Record<string, string>;
    const parent = Object.freeze({ exitLadder: child }) as StateValue;
    expect(coversAt(patternOf(parent), 'exitLadder.stopHooks.running', 0, 28)).toBe(true);
    child.stopHooks = 'done';
    expect(coversAt(patternOf(parent), 'exitLadder.stopHooks.done', 0, 25)).toBe(true);
  });
});
