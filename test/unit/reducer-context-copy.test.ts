/**
 * `toMachineContext` / `toLoopContext` copy the run's context field by field (a fixed object shape is what makes a
 * memoized step cheap). A field added to the context but not to the copy would vanish after one step; the type
 * catches a missing required field, and this test catches the rest (an optional field, a field only the initial
 * context sets).
 */
import { describe, expect, it } from 'vitest';
import { createInitialContext, toLoopContext, toMachineContext } from '../../src/machine/context-conversions.ts';
import { params, testConfig } from '../helpers/index.ts';

describe('context copies', () => {
  const config = testConfig();
  const context = createInitialContext(params('hi', { taskBudget: { total: 1_000 } }), config);

  it('keep every field of the run context, in and out of the machine context', () => {
    const machineContext = toMachineContext(context, config);
    expect(Object.keys(machineContext).sort()).toEqual([...Object.keys(context), 'config'].sort());
    expect(toLoopContext(machineContext)).toEqual(context);
    expect(Object.keys(toLoopContext(machineContext))).toEqual(Object.keys(context));
  });

  it('are fresh objects sharing the field values', () => {
    const machineContext = toMachineContext(context, config);
    expect(machineContext).not.toBe(context);
    expect(machineContext.messages).toBe(context.messages);
    expect(toLoopContext(machineContext)).not.toBe(machineContext);
  });
});
