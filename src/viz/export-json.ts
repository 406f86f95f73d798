/**
 * XState JSON export: the machine's own config as JSON data, the object `createMachine()` from xstate 5 loads as
 * it is. Guards and actions are names (`"guard": "hasToolUse"`, `{ "type": "requestContextLayer", "params": ..}`);
 * supply their implementations by name to run it:
 *
 *   setup({ guards, actions }).createMachine({ ...json, context: ({ input }) => input })
 *
 * Every state is written out literally (the machine source builds some with helpers and spreads), so a reader
 * that only looks at data sees all of them. Two root fields are functions and cannot be JSON: `context` (the
 * run's input) and `output` (`context.terminal`); they are left out and named in `OMITTED_ROOT_FUNCTIONS`. Any
 * other function in the config (an inline guard or action) is an error, because leaving it out would export a
 * different machine. Pure.
 */
import type { AnyStateMachine } from 'xstate';
import { loopMachine } from '../machine/loop-machine.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** Root config fields that are functions by design and so are not in the JSON. */
export const OMITTED_ROOT_FUNCTIONS = ['context', 'output'] as const;

/** A function in the machine config where the export expects data (the path says where). */
export class InlineFunctionError extends TurnloopError {
  constructor(readonly path: string) {
    super('INLINE_FUNCTION_IN_MACHINE', `machine config has a function at ${path}; the JSON export needs named guards and actions (setup({ guards, actions }))`);
    this.name = 'InlineFunctionError';
  }
}

function toData(value: unknown, path: string): unknown {
  if (typeof value === 'function') throw new InlineFunctionError(path);
  if (Array.isArray(value)) return value.map((item, i) => toData(item, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (child !== undefined) out[key] = toData(child, `${path}.${key}`);
    }
    return out;
  }
  return value;
}

/**
 * The machine config as plain data (deep copy): what `createMachine()` takes, minus the root functions.
 *
 * @example
 * const config = machineConfig();
 * createMachine(config).root.states.turnLimit.always.length; // 2
 */
export function machineConfig(machine: Pick<AnyStateMachine, 'config'> = loopMachine): Record<string, unknown> {
  const root = { ...(machine.config as Record<string, unknown>) };
  for (const key of OMITTED_ROOT_FUNCTIONS) {
    if (typeof root[key] === 'function') delete root[key];
  }
  return toData(root, 'config') as Record<string, unknown>;
}

/** `turnloop export --format json`: the config, pretty-printed. */
export function exportJson(machine: Pick<AnyStateMachine, 'config'> = loopMachine): string {
  return `${JSON.stringify(machineConfig(machine), null, 2)}\n`;
}
