/** `step()` was given an event whose type the loop machine does not know (a typo, a foreign object). */
import { TurnloopError } from '../errors/turnloop-error.ts';

export class UnknownEventError extends TurnloopError {
  constructor(
    readonly eventType: unknown,
    readonly known: readonly string[],
  ) {
    super('UNKNOWN_EVENT', `step() was given an event of unknown type ${JSON.stringify(eventType)}; the loop's event types are: ${known.join(', ')}`);
  }
}
