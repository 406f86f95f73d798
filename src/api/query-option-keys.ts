/**
 * The keys `query()` accepts, as a list the type checker holds equal to `keyof QueryOptions`, so that a mistyped
 * option (`maxTurn`) or an internal one (`resumeFrom`) from plain JavaScript is refused at the call instead of being
 * ignored. No zod here: the root import stays light.
 */
import { closestName } from '../errors/did-you-mean.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { LOOP_PARAM_KEYS } from '../runtime/query-options.ts';
import type { QueryOptions } from './run-options.ts';

const OTHER_KEYS = [
  'messages', 'prompt', 'tools', 'canUseTool', 'preToolHooks', 'postToolHooks', 'stopHooks', 'stopFailureHooks', 'postSamplingHooks', 'signal', 'config',
  'deps', 'onStep', 'onError', 'stepGate', 'observers', 'agents', 'childObservers', 'childDeps', 'forkObservers',
  'record', 'telemetry', 'inspect', 'onRetry',
] as const satisfies ReadonlyArray<keyof QueryOptions>;

export const QUERY_OPTION_KEYS: ReadonlyArray<keyof QueryOptions> = [...LOOP_PARAM_KEYS, ...OTHER_KEYS];

type UnlistedOptionKeys = Exclude<keyof QueryOptions, (typeof LOOP_PARAM_KEYS)[number] | (typeof OTHER_KEYS)[number]>;
/** Compiles only while every key of `QueryOptions` is listed. */
export const EVERY_OPTION_KEY_LISTED: [UnlistedOptionKeys] extends [never] ? true : UnlistedOptionKeys = true;

/** The public function whose options are checked, as an error names it. */
export type CheckedEntryPoint = 'query()' | 'durableQuery()';

/** An option `query()` does not know (a typo, or turnloop's internal plumbing). */
export class UnknownQueryOptionError extends TurnloopError {
  constructor(
    readonly option: string,
    callee: CheckedEntryPoint = 'query()',
  ) {
    const guess = closestName(option, QUERY_OPTION_KEYS);
    super('UNKNOWN_QUERY_OPTION', `${callee}: '${option}' is not an option${guess ? `; did you mean '${guess}'?` : ` (see QueryOptions)`}`);
    this.name = 'UnknownQueryOptionError';
  }
}

/** Throws `UnknownQueryOptionError` for the first key of `options` that `query()` does not accept. */
export function checkQueryOptionKeys(options: object, callee: CheckedEntryPoint = 'query()'): void {
  const known = new Set<string>(QUERY_OPTION_KEYS);
  for (const key of Object.keys(options)) if (!known.has(key)) throw new UnknownQueryOptionError(key, callee);
}
