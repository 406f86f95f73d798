/**
 * Grep and Glob survive patterns that blow up the linear engine's memory (issue 29, item 1): `\pL{1000}` is 10
 * characters and compiles to more than RE2's fixed 16 MB heap. Such a pattern is an error result for its own call,
 * refused before compiling (an estimate of the compiled size, `src/tools/builtin/pattern-size.ts`); a compile that still
 * exhausts the heap aborts only a disposable engine instance (`src/tools/builtin/re2-engine.ts`), so later calls work.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileLinearRegExp, compileOnEngine, sharedLinearRegExp } from '../../src/tools/builtin/linear-regexp.ts';
import { currentEngine } from '../../src/tools/builtin/re2-engine.ts';
import { estimatePatternUnits, MAX_PATTERN_UNITS } from '../../src/tools/builtin/pattern-size.ts';
import { expectInvariants, makeSandbox, runHostile, snapshotOutside, toolResultTexts, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ 'src/a.txt': 'alpha beta\n', 'src/b.ts': 'export const b = 1;\n' });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

const HOSTILE = ['\\pL{1000}', '\\p{Greek}{1000}', '(\\pL|\\pN){150}', '[\\p{L}\\p{N}]{999}', '\\PL{500}', '(?i)\\pL{300}', '(\\w{30}){30}\\pL{90}'];

describe('hostile patterns against the regular expression engine', () => {
  it('one reply with 24 memory-hostile Grep patterns: each an error result, at once; later Grep and Glob work', async () => {
    const calls = Array.from({ length: 24 }, (_, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: 'Grep', input: { pattern: HOSTILE[i % HOSTILE.length]! } }));
    const started = Date.now();
    const run = await runHostile({
      sandbox,
      model: [
        { content: calls, stop_reason: 'tool_use' },
        { content: [{ type: 'tool_use', id: 'ok1', name: 'Grep', input: { pattern: 'alpha\\s+\\w+' } }, { type: 'tool_use', id: 'ok2', name: 'Glob', input: { pattern: '**/*.ts' } }], stop_reason: 'tool_use' },
        { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
      ],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 3 });
    expect(run.terminal.reason).toBe('completed');
    const texts = toolResultTexts(run);
    const hostile = texts.slice(0, 24);
    for (const text of hostile) expect(text).toMatch(/program units; at most 20000 are accepted|compiles to more than the regular expression engine's 16 MB/);
    expect(texts.slice(24).join('\n')).toMatch(/a\.txt/);
    expect(texts.slice(24).join('\n')).toMatch(/b\.ts/);
    expect(texts.join('\n')).not.toMatch(/Cannot enlarge memory/);
    // Refused from the estimate: no compile of seconds each (24 of them took minutes before).
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('the estimate refuses the shapes that exhaust the heap and keeps ordinary ones', () => {
    for (const pattern of HOSTILE) expect(estimatePatternUnits(pattern), pattern).toBeGreaterThan(MAX_PATTERN_UNITS);
    for (const pattern of ['function\\s+\\w+\\(', '^import .* from', '[\\p{L}\\p{N}]+', '.{1000}', '[^a]{1000}', '(?i)[a-z]{1000}', 'x{1000}y{1000}', '\\pL{40}']) {
      expect(estimatePatternUnits(pattern), pattern).toBeLessThanOrEqual(MAX_PATTERN_UNITS);
    }
    // The cheap ones compile here (the calibration of the big ones is in the module comment: seconds each).
    for (const pattern of ['function\\s+\\w+\\(', '[\\p{L}\\p{N}]+', 'x{1000}y{1000}']) compileLinearRegExp(pattern).free();
  });

  it('a compile that exhausts the heap fails alone: the engine is replaced, later compiles and shared expressions work', () => {
    const redactor = sharedLinearRegExp('secret-[0-9]+', 'g');
    const firstEngine = currentEngine();
    for (let i = 0; i < 2; i++) {
      expect(() => compileOnEngine('\\pL{1000}', '')).toThrow(/compiles to more than the regular expression engine's 16 MB/);
    }
    expect(currentEngine().generation).toBeGreaterThan(firstEngine.generation);
    const later = compileLinearRegExp('b(et)a');
    expect(later.spans('alpha beta')).toEqual([[6, 10]]);
    later.free();
    // The shared expression moved to the new engine and still matches.
    expect(redactor.spans('a secret-42 here')).toEqual([[2, 11]]);
  });
});
