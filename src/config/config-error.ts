/**
 * The error of a config override that is not part of the config or has the wrong type. Apart from the check
 * (`parse-config-overrides.ts`, which loads zod) so that the package root can export it and stay light.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

export class ConfigError extends TurnloopError {
  constructor(
    /** Where in the config: `config.limits.maxModelCall`. */
    readonly path: string,
    readonly expected: string,
  ) {
    super('INVALID_CONFIG', `${path}: ${expected}`);
    this.name = 'ConfigError';
  }
}
