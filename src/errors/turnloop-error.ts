/**
 * The one base of every error turnloop throws. `code` is stable across releases (match on it, not on the class or
 * the message); `isTurnloopError` works across copies of the package, where `instanceof` may not.
 */
const MARKER = Symbol.for('turnloop.error');

export class TurnloopError extends Error {
  /** A stable, machine-readable name of what went wrong, e.g. `SCENARIO_FILE`. */
  readonly code: string;
  readonly [MARKER] = true;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** True for any turnloop error, including one thrown by another copy of the package. */
export function isTurnloopError(value: unknown): value is TurnloopError {
  return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
}
