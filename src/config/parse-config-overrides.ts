/**
 * Checks config overrides once, where they enter (`query()`, `durableQuery()`), so a mistyped key fails before the
 * run instead of being merged in and ignored. The schema is `configOverridesSchema`, derived from `DEFAULT_CONFIG`;
 * a full `LoopConfig` passes as well (every key is a valid override). zod loads with this module, which is why the
 * package root imports it only when `query()` is called.
 */
import { closestName } from '../errors/did-you-mean.ts';
import { ConfigError } from './config-error.ts';
import { configOverridesSchema } from './config-overrides-schema.ts';
import type { ConfigOverrides } from './config.ts';

export { ConfigError };

type Issue = { code: string; path: PropertyKey[]; message: string; keys?: string[] };

function pathText(root: string, path: readonly PropertyKey[]): string {
  return [root, ...path.map(String)].join('.');
}

/** The keys the config accepts at `path` (the top level, or a group such as `limits`). */
function knownKeys(path: readonly PropertyKey[]): string[] {
  let shape: unknown = (configOverridesSchema as unknown as { shape: Record<string, unknown> }).shape;
  for (const key of path) {
    let field = (shape as Record<string, { unwrap?: () => unknown; shape?: unknown }>)[String(key)];
    if (field?.unwrap) field = field.unwrap() as typeof field;
    shape = field?.shape;
    if (shape === undefined) return [];
  }
  return Object.keys(shape as object);
}

function describe(issue: Issue, root: string): ConfigError {
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const [key] = issue.keys;
    const known = knownKeys(issue.path);
    const guess = closestName(key!, known);
    const hint = guess ? `did you mean '${guess}'?` : `expected one of ${known.join(', ')}`;
    return new ConfigError(pathText(root, [...issue.path, key!]), `not a config key; ${hint}`);
  }
  return new ConfigError(pathText(root, issue.path), issue.message);
}

/**
 * The overrides, checked: throws `ConfigError` (code `INVALID_CONFIG`) naming the first wrong key, with the key it
 * was probably meant to be.
 *
 * @example
 * parseConfigOverrides({ limits: { maxModelCall: 5 } }); // ConfigError: config.limits.maxModelCall: not a config key; did you mean 'maxModelCalls'?
 */
export function parseConfigOverrides(overrides: unknown, root = 'config'): ConfigOverrides {
  if (overrides === undefined) return {};
  const result = configOverridesSchema.safeParse(overrides);
  if (result.success) return overrides as ConfigOverrides;
  throw describe(result.error.issues[0] as unknown as Issue, root);
}
