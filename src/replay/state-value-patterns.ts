/**
 * The state value of a replayed step as a sticky regular expression, for `replay()`'s one pass (`replay.ts`) to
 * match against a line's recorded `at.v` at its offset: `startsWith` at an offset cost about three times the
 * expression's test.
 *
 * One expression per value text (a replay sees a handful), remembered per value object: the chart hands out one
 * frozen value per state, and a replay alternates between them (7 lines in 10 of the bench's log change it), so
 * remembering the last value alone rebuilt the dotted text of a compound value and hashed it into a map on most
 * lines. Only a frozen value (or a state name) is remembered by identity, as the memo does (`macrostep-memo.ts`): a
 * value object that could change is read again each time. Past `MAX_VALUES` objects, values are looked up by text.
 */
import type { LoopState } from '../data/state.ts';
import { stateValueString } from './stable-hash.ts';

type StateValue = LoopState['value'];

/** Value objects a replay remembers by identity (the bench's chart hands out 8 in a whole run). */
const MAX_VALUES = 64;

/** Whether `value` can never read differently: a state name, or frozen objects down the path its text follows. */
function isFixed(value: StateValue): boolean {
  if (typeof value === 'string') return true;
  if (!Object.isFrozen(value)) return false;
  for (const key in value) return isFixed(value[key] as StateValue);
  return true;
}

/** A matcher of its own per replay: the value's text as a sticky expression (no flag but `y`, no special character unescaped). */
export function stateValuePatterns(): (value: StateValue) => RegExp {
  const byValue = new Map<StateValue, RegExp>();
  const byText = new Map<string, RegExp>();
  return (value) => {
    let pattern = byValue.get(value);
    if (pattern !== undefined) return pattern;
    const text = stateValueString(value);
    pattern = byText.get(text);
    if (pattern === undefined) {
      pattern = new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'y');
      byText.set(text, pattern);
    }
    if (byValue.size < MAX_VALUES && isFixed(value)) byValue.set(value, pattern);
    return pattern;
  };
}
