/**
 * The check every model event takes before the reducer and the log see it (`jsonRoundTripProblem`,
 * src/runtime/recordable-model-output.ts) walks the event by recursion with no stack of its own (round 15: two
 * arrays grown and popped per event before), and still refuses at the depth limit without going deeper, so a hostile
 * depth cannot overflow the stack. test/property/recordable-model-output.test.ts pins what it accepts end to end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonRoundTripProblem, MAX_MODEL_EVENT_DEPTH } from '../../src/runtime/recordable-model-output.ts';

/** `{ a: { a: … end } }`, `depth` objects deep (the outermost is level 1). */
function nested(depth: number, end: unknown = 1): unknown {
  let value: unknown = end;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the round-trip walk of a model event', () => {
  it('walks without a stack array of its own', () => {
    const pop = vi.spyOn(Array.prototype, 'pop');
    const event = { type: 'model_message', message: { content: [{ type: 'text', text: 'hi "there"\n' }, { type: 'tool_use', id: 't', input: { a: [1, 2, { b: null }] } }] } };
    expect(jsonRoundTripProblem(event, MAX_MODEL_EVENT_DEPTH)).toBeNull();
    expect(pop).not.toHaveBeenCalled();
  });

  it('accepts the limit\'s depth and refuses one more, with the place named', () => {
    // Objects count their level (the event is level 1); a number at the end is no level of its own.
    expect(jsonRoundTripProblem(nested(MAX_MODEL_EVENT_DEPTH), MAX_MODEL_EVENT_DEPTH)).toBeNull();
    expect(jsonRoundTripProblem(nested(MAX_MODEL_EVENT_DEPTH + 1), MAX_MODEL_EVENT_DEPTH)).toMatch(/nests deeper than 256 levels/);
    expect(jsonRoundTripProblem(nested(MAX_MODEL_EVENT_DEPTH, {}), MAX_MODEL_EVENT_DEPTH)).toMatch(/nests deeper than 256 levels/);
    expect(jsonRoundTripProblem([[[1]]], 3)).toBeNull();
    expect(jsonRoundTripProblem([[[[1]]]], 3)).toMatch(/nests deeper than 3 levels/);
  });

  it('refuses a hostile depth without overflowing the stack', () => {
    expect(jsonRoundTripProblem(nested(200_000), MAX_MODEL_EVENT_DEPTH)).toMatch(/nests deeper than 256 levels/);
  });

  it('reads an object\'s own members by Object.keys, not by an Object.hasOwn call per member (round 17)', () => {
    const hasOwn = vi.spyOn(Object, 'hasOwn');
    const event = { type: 'model_message', message: { content: [{ type: 'tool_use', id: 't', input: { a: [1, 'x', { b: null }] } }] } };
    expect(jsonRoundTripProblem(event, MAX_MODEL_EVENT_DEPTH)).toBeNull();
    expect(hasOwn).not.toHaveBeenCalled();
  });

  it('walks own enumerable members only, as for…in with an own check did', () => {
    const inherited = Object.create({ bad: Number.NaN }) as Record<string, unknown>;
    inherited.a = 1;
    expect(jsonRoundTripProblem({ inherited }, 10)).toBeNull();
    const hidden = Object.defineProperty({ a: 1 }, 'bad', { value: Number.NaN, enumerable: false });
    expect(jsonRoundTripProblem({ hidden }, 10)).toBeNull();
    expect(jsonRoundTripProblem({ [Symbol('s')]: Number.NaN, a: 'x' }, 10)).toBeNull();
    const getter = Object.defineProperty({ a: 1 }, 'later', { get: () => Number.POSITIVE_INFINITY, enumerable: true });
    expect(jsonRoundTripProblem({ getter }, 10)).toMatch(/getter\.later is Infinity/);
    expect(jsonRoundTripProblem({ 2: 'x', 1: [Number.NaN], b: 1 }, 10)).toMatch(/^1\[0\] is NaN/);
  });

  it('refuses what JSON cannot hold, anywhere in the value', () => {
    expect(jsonRoundTripProblem({ a: [1, { b: Number.NaN }] }, 10)).toMatch(/a\[1\]\.b is NaN/);
    expect(jsonRoundTripProblem({ a: [1, undefined] }, 10)).toMatch(/a\[1\] is undefined/);
    expect(jsonRoundTripProblem({ a: { b: undefined, c: 1n } }, 10)).toMatch(/a\.c is a bigint/);
    expect(jsonRoundTripProblem({ a: () => 1 }, 10)).toMatch(/a is a function/);
    expect(jsonRoundTripProblem({ a: undefined, b: -0, c: '\ud800' }, 10)).toBeNull();
  });
});
