/**
 * The one base of every error turnloop throws. `code` is stable across releases (match on it, not on the class or
 * the message), one of `ERROR_CODES`; `isTurnloopError` works across copies of the package, where `instanceof` may
 * not. No other `Error` is made in src/ (a test scans for one): a value thrown at us that is not an Error becomes
 * one here (`asError`).
 */
import type { TurnloopErrorCode } from './error-codes.ts';

export { ERROR_CODES, type TurnloopErrorCode } from './error-codes.ts';

const MARKER = Symbol.for('turnloop.error');

export class TurnloopError extends Error {
  /** A stable, machine-readable name of what went wrong, e.g. `INPUT_FILE`. */
  readonly code: TurnloopErrorCode;
  readonly [MARKER] = true;

  constructor(code: TurnloopErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** True for any turnloop error, including one thrown by another copy of the package. */
export function isTurnloopError(value: unknown): value is TurnloopError {
  return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
}

/** `value` itself when it is an Error, else a `TurnloopError` (`NON_ERROR_THROWN`) whose message is its text. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new TurnloopError('NON_ERROR_THROWN', String(value), { cause: value });
}
