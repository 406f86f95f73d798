/**
 * The objects the pure core makes per step or per run get their shape from a literal, never from a class of ours
 * (docs/architecture.md, "Shapes that outlive a run"): a class instance's shape dies with the run, and the next full
 * GC then deoptimizes every action and guard that had seen it. Error classes are exempt (an error ends the step).
 */
import { describe, expect, it } from 'vitest';
import { coreOffenders } from '../helpers/core-sources.ts';

/** Class declarations that are not errors (`extends TurnloopError`, `extends Error`). */
export function nonErrorClassesIn(source: string): string[] {
  return source
    .split('\n')
    .filter((line) => /^\s*(export\s+(default\s+)?)?(abstract\s+)?class\b|=\s*class\b/.test(line) && !/\bextends\s+(TurnloopError|Error)\b/.test(line))
    .map((line) => line.trim());
}

describe('object shapes in the pure core', () => {
  it('declares no class but errors in src/reducer and src/machine', () => {
    expect(coreOffenders(nonErrorClassesIn)).toEqual([]);
  });

  it('would notice a class (the check can fail), and lets error classes be', () => {
    expect(nonErrorClassesIn('export class Outbox {\n  private seq = 0;\n}')).toEqual(['export class Outbox {']);
    expect(nonErrorClassesIn('  class Memo implements Tracer {')).toHaveLength(1);
    expect(nonErrorClassesIn('export default class {')).toHaveLength(1);
    expect(nonErrorClassesIn('const Tracer = class {')).toHaveLength(1);
    expect(nonErrorClassesIn('export class UnknownEventError extends TurnloopError {')).toEqual([]);
  });
});
