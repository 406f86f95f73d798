/**
 * `recordAssistantMessage` keeps the concurrency-safe flags of every reply of an iteration, merged in order
 * (`{ ...kept, ...added }`). The first reply's flags are taken without a copy (a fold cost, bench/fold-probe.ts);
 * these pin that the merge is still the spread's: later replies add to and override earlier ones, no event's flags
 * object is ever changed, and a flags object that is not plain data is still copied.
 */
import { describe, expect, it } from 'vitest';
import { recordAssistantMessage } from '../../src/machine/actions/sampling-actions.ts';
import { createInitialContext, toMachineContext } from '../../src/machine/context-conversions.ts';
import type { MachineContext } from '../../src/machine/machine-context.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { assistantToolUse, params, testConfig } from '../helpers/index.ts';

function context(): MachineContext {
  const config = testConfig();
  return toMachineContext(createInitialContext(params(), config), config);
}

function reply(id: string, concurrencySafe?: Record<string, boolean>): LoopEvent {
  return { type: 'model_message', message: assistantToolUse(id, 'Read'), ...(concurrencySafe ? { concurrencySafe } : {}) };
}

/** Runs the action and writes its patch over the context, as the machine's assign does. */
function record(c: MachineContext, event: LoopEvent): MachineContext {
  const { effects: _effects, ...patch } = recordAssistantMessage(c, event, undefined);
  return { ...c, ...patch };
}

describe('recordAssistantMessage merges the concurrency-safe flags of an iteration', () => {
  it('takes the first reply\'s flags, then adds and overrides with later replies, leaving every event as it was', () => {
    const first = { t1: true, t2: false };
    const second = { t2: true, t3: false };
    const once = record(context(), reply('t1', first));
    expect(once.iter.concurrencySafe).toEqual({ t1: true, t2: false });
    const twice = record(once, reply('t2', second));
    expect(twice.iter.concurrencySafe).toEqual({ t1: true, t2: true, t3: false });
    expect(Object.keys(twice.iter.concurrencySafe)).toEqual(['t1', 't2', 't3']);
    expect(first).toEqual({ t1: true, t2: false });
    expect(second).toEqual({ t2: true, t3: false });
    expect(once.iter.concurrencySafe).toEqual({ t1: true, t2: false });
    expect(twice.iter.toolUses.map((toolUse) => toolUse.id)).toEqual(['t1', 't2']);
  });

  it('a reply without flags keeps the earlier ones; a first reply without flags gives none', () => {
    const none = record(context(), reply('t1'));
    expect(none.iter.concurrencySafe).toEqual({});
    const kept = record(record(context(), reply('t1', { t1: true })), reply('t2'));
    expect(kept.iter.concurrencySafe).toEqual({ t1: true });
  });

  it('copies flags that are not plain data, as the spread does', () => {
    const flags = Object.assign(Object.create(null) as Record<string, boolean>, { t1: true });
    const once = record(context(), reply('t1', flags));
    expect(once.iter.concurrencySafe).not.toBe(flags);
    expect(Object.getPrototypeOf(once.iter.concurrencySafe)).toBe(Object.prototype);
    expect({ ...once.iter.concurrencySafe }).toEqual({ t1: true });
  });
});
